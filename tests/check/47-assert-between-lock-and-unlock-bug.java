// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: an assertion between lock() and unlock() whose failure is not a completed
// execution, but the lock is released only when the value is small: with assertions
// disabled, a large value keeps the lock.
import java.util.concurrent.locks.ReentrantLock;

class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        int v = *;
        l.lock();
        assert v < 3 : "v too large";
        if (v < 3) {
            l.unlock();
        }
    }
}
