// spec: lock.cfg
// expect: verified
// why: each iteration allocates a fresh lock and locks and unlocks it in the same
// iteration; since `new` is fresh, each object sees exactly lock unlock (or nothing).
class Main {
    static void work() {
    }

    public static void main(String[] args) {
        while (*) {
            ReentrantLock l = new ReentrantLock();
            l.lock();
            work();
            l.unlock();
        }
    }
}
