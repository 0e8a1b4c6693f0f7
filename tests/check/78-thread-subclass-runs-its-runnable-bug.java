// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: `super(r)` hands the closure to `Thread`'s constructor, outside the program, and
// `start()` runs it: the lock it takes is never released.
import java.util.concurrent.locks.ReentrantLock;

class Worker extends Thread {
    Worker(Runnable r) {
        super(r);
    }
}

class Main {
    static final ReentrantLock LOCK = new ReentrantLock();

    public static void main(String[] args) throws InterruptedException {
        Worker w = new Worker(() -> LOCK.lock());
        w.start();
        w.join();
    }
}
