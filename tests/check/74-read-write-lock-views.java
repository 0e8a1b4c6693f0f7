// spec: lock.cfg
// expect: verified
// why: the read and write locks of a ReentrantReadWriteLock, held in variables of types
// `ReadLock` and `WriteLock`, are locks like any other; each is unlocked on every way out.
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock.ReadLock;
import java.util.concurrent.locks.ReentrantReadWriteLock.WriteLock;

class Cache {
    private final ReentrantReadWriteLock rw = new ReentrantReadWriteLock();
    private final ReadLock readLock = rw.readLock();
    private final WriteLock writeLock = rw.writeLock();
    private int size;

    int peek() {
        readLock.lock();
        try {
            if (size == 0) {
                return -1;
            }
            return size;
        } finally {
            readLock.unlock();
        }
    }

    void put() {
        writeLock.lock();
        try {
            size++;
        } finally {
            writeLock.unlock();
        }
    }
}

class Main {
    public static void main(String[] args) {
        Cache c = new Cache();
        if (*) {
            c.put();
        }
        c.peek();
    }
}
