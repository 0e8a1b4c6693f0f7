// spec: lock
// expect: verified
// why: Worker.this in the inner Step is the Worker that created it, so lock() and unlock()
// are on the same lock.
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
            Worker.this.lock.lock();
            Worker.this.lock.unlock();
        }
    }

    public static void main(String[] args) {
        new Worker().run();
    }
}
