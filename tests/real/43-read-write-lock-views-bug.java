// spec: lock
// expect: violation
// why: the read lock of a ReentrantReadWriteLock, held in a variable of type `ReadLock`,
// is a lock like any other: `peek` returns with it held when the cache is empty.
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
        if (size == 0) {
            return -1;
        }
        int s = size;
        readLock.unlock();
        return s;
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
