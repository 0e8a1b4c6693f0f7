// spec: lock.cfg
// expect: verified
// why: `Thread` calls the task's `run()`, which unlocks on every way out; the task's
// `helper()` overrides nothing (the class marks its overrides with `@Override`), so
// library code never calls it.
import java.util.concurrent.locks.ReentrantLock;

class Task implements Runnable {
    static final ReentrantLock LOCK = new ReentrantLock();
    int done;

    @Override
    public void run() {
        LOCK.lock();
        try {
            done++;
        } finally {
            LOCK.unlock();
        }
    }

    public void helper() {
        LOCK.unlock();
    }
}

class Main {
    public static void main(String[] args) throws InterruptedException {
        Thread t = new Thread(new Task());
        t.start();
        t.join();
    }
}
