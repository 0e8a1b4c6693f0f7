// Built-in model of java.util.concurrent.locks.ReentrantReadWriteLock (`cfp models rwlock`):
// readLock() and writeLock() return the same lock every time they are called, so that
// `rw.writeLock().lock(); … rw.writeLock().unlock();` locks and unlocks one object. The two
// locks are ReentrantLocks (the `lock` protocol applies to them). Methods outside the model
// (isWriteLocked(), getReadLockCount(), …) have arbitrary results and no effect.
interface ReadWriteLock {
    ReentrantLock readLock();

    ReentrantLock writeLock();
}

class ReentrantReadWriteLock extends CfpLibraryModel implements ReadWriteLock {
    private final ReentrantLock readerLock = new ReentrantLock();
    private final ReentrantLock writerLock = new ReentrantLock();

    public ReentrantReadWriteLock() {
    }

    public ReentrantReadWriteLock(boolean fair) {
    }

    public ReentrantLock readLock() {
        return readerLock;
    }

    public ReentrantLock writeLock() {
        return writerLock;
    }
}
