/** cfp's model of `ReentrantReadWriteLock`: the same two locks on every call. */
class ReentrantReadWriteLock implements ReadWriteLock {
    /** The read lock's class. */
    public static class ReadLock extends ReentrantLock {
    }

    /** The write lock's class. */
    public static class WriteLock extends ReentrantLock {
    }

    private final ReadLock readerLock = new ReadLock();
    private final WriteLock writerLock = new WriteLock();

    public ReentrantReadWriteLock() {
    }

    public ReentrantReadWriteLock(boolean fair) {
    }

    public ReadLock readLock() {
        return readerLock;
    }

    public WriteLock writeLock() {
        return writerLock;
    }

    public boolean isWriteLocked() {
        return cfporacle.Rt.extBool();
    }

    public int getReadLockCount() {
        return cfporacle.Rt.extInt();
    }
}
