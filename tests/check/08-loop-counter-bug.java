// spec: lock.cfg
// expect: violation
// word: $1.lock() $1.lock() $1.unlock()
// why: the loop runs exactly twice (i = 0, 1), so the only execution emits
// lock lock unlock on the lock; one lock stays open. It is the only non-empty word.
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        for (int i = 0; i < 2; i++) {
            l.lock();
        }
        l.unlock();
    }
}
