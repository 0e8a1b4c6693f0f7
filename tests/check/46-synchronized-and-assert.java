// spec: lock.cfg
// expect: verified
// why: `synchronized` blocks (on `this` and on a class literal) and `assert`s around a
// lock: the monitor is no protocol event, and an assertion either is not checked or ends
// the execution when it fails; the lock is released on every completed execution.
import java.util.concurrent.locks.ReentrantLock;

class Counter {
    private final ReentrantLock lock = new ReentrantLock();
    private int count;

    void add(int n) {
        assert n > 0 : "n must be positive";
        synchronized (this) {
            lock.lock();
            try {
                count = count + n;
            } finally {
                lock.unlock();
            }
        }
        assert count > 0;
    }

    static void reset(Counter c) {
        synchronized (Counter.class) {
            c.lock.lock();
            c.count = 0;
            c.lock.unlock();
        }
    }
}

class Main {
    public static void main(String[] args) {
        Counter c = new Counter();
        c.add(1);
        c.add(*);
        Counter.reset(c);
    }
}
