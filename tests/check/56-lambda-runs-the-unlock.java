// spec: lock.cfg
// expect: verified
// why: the lambda runs when `r.run()` calls it, and it unlocks the captured lock: every
// execution is lock unlock.
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        l.lock();
        Runnable r = () -> l.unlock();
        r.run();
    }
}
