// spec: lock
// expect: verified
// why: the inner Step locks and unlocks the lock of the Worker that created it (its
// enclosing instance, this$0), so each apply() is balanced.
import java.util.concurrent.locks.ReentrantLock;

class Worker {
    private final ReentrantLock lock = new ReentrantLock();

    void run() {
        lock.lock();
        new Step().apply();
        lock.unlock();
    }

    private class Step {
        void apply() {
            lock.lock();
            lock.unlock();
        }
    }

    public static void main(String[] args) {
        new Worker().run();
    }
}
