/**
 * `java.util.concurrent.locks.Lock` as a class (the paper's examples write `new Lock()`);
 * `ReentrantLock` extends it. `tryLock` follows cfp's model: it may fail, and when it
 * succeeds it is a `lock()`.
 */
class Lock {
    public void lock() {
        cfporacle.Rt.event(this, "lock");
    }

    public void unlock() {
        cfporacle.Rt.event(this, "unlock");
    }

    public void lockInterruptibly() {
        cfporacle.Rt.event(this, "lockInterruptibly");
        lock();
    }

    public boolean tryLock() {
        cfporacle.Rt.event(this, "tryLock");
        if (cfporacle.Rt.modelBool()) {
            lock();
            return true;
        }
        return false;
    }

    public boolean tryLock(long time, java.util.concurrent.TimeUnit unit) {
        cfporacle.Rt.event(this, "tryLock", time, unit);
        return tryLock();
    }
}
