// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: the release helper returns early, without unlocking, when the computed value is
// large; the caller trusts it to unlock.
import java.util.concurrent.locks.ReentrantLock;

class Cache {
    final ReentrantLock lock = new ReentrantLock();
    int size = 0;

    void release(int r) {
        if (r > 4) {
            return;
        }
        lock.unlock();
    }

    int put(int n) {
        lock.lock();
        int r = n * 2 + size;
        size = size + 1;
        release(r);
        return size;
    }
}

class Main {
    public static void main(String[] args) {
        Cache c = new Cache();
        c.put(Input.readInt());
    }
}
