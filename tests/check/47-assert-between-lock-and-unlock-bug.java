// spec: lock.cfg
// expect: violation
// An assertion between lock() and unlock() whose failure is not a completed execution,
// but the lock is released only when the value is small: with assertions disabled, a
// large value keeps the lock.
import java.util.concurrent.locks.ReentrantLock;

class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        int v = *;
        l.lock();
        assert v < 10 : "v too large";
        if (v < 10) {
            l.unlock();
        }
    }
}
