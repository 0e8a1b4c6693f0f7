// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: `Task` is a class of the program, not a closure, and `Thread` calls its `run()`
// once `start()` is called: the lock it takes is never released.
import java.util.concurrent.locks.ReentrantLock;

class Task implements Runnable {
    static final ReentrantLock LOCK = new ReentrantLock();

    @Override
    public void run() {
        LOCK.lock();
    }
}

class Main {
    public static void main(String[] args) throws InterruptedException {
        Thread t = new Thread(new Task());
        t.start();
        t.join();
    }
}
