// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: every iteration allocates a NEW lock and locks it; only the last one is unlocked
// after the loop. With one iteration the first object (allocated before the loop) sees
// just `lock`. Zero iterations give lock unlock (fine).
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        l.lock();
        while (*) {
            l = new ReentrantLock();
            l.lock();
        }
        l.unlock();
    }
}
