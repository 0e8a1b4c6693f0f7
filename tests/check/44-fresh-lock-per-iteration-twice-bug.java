// spec: lock-once.cfg
// expect: violation
// word: $1.lock() $1.unlock() $1.lock() $1.unlock()
// why: like 43, but the loop locks the same (hoisted) lock in every iteration: two
// iterations give it two nests, which the spec forbids.
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        while (*) {
            l.lock();
            l.unlock();
        }
    }
}
