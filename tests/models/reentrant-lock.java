// Built-in model of java.util.concurrent.locks.ReentrantLock and Lock (`cfp models
// reentrant-lock`), added to a program that calls tryLock() or lockInterruptibly():
// tryLock() may fail; when it succeeds, it is the lock() of the protocol.
// lockInterruptibly() is lock(). Methods outside the model (getHoldCount(), …) have
// arbitrary results and no effect.
interface Lock {
    void lock();

    void unlock();

    void lockInterruptibly();

    boolean tryLock();

    boolean tryLock(long time, TimeUnit unit);
}

class ReentrantLock extends CfpLibraryModel implements Lock {
    public ReentrantLock() {
    }

    public ReentrantLock(boolean fair) {
    }

    public void lock() {
    }

    public void unlock() {
    }

    public void lockInterruptibly() {
        lock();
    }

    public boolean tryLock() {
        if (CfpLibraryModel.anyBoolean()) {
            lock();
            return true;
        }
        return false;
    }

    public boolean tryLock(long time, TimeUnit unit) {
        return tryLock();
    }
}
