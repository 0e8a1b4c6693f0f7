/** `java.util.concurrent.locks.ReadWriteLock`, as cfp's model has it. */
interface ReadWriteLock {
    ReentrantLock readLock();

    ReentrantLock writeLock();
}
