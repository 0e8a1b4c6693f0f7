// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: when `work` throws, the catch block runs and returns before the unlock.
class Main {
    static void work() {
        if (*) { throw new IllegalStateException(); }
    }
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        l.lock();
        try {
            work();
            l.unlock();
        } catch (IllegalStateException e) {
            return;
        }
    }
}
