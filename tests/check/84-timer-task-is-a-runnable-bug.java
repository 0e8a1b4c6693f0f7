// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: a `TimerTask` is a `Runnable` (the JDK says so, not the program): `r.run()` runs
// the task's `run()`, whose lock is never released.
import java.util.TimerTask;
import java.util.concurrent.locks.ReentrantLock;

class Tick extends TimerTask {
    static final ReentrantLock LOCK = new ReentrantLock();

    @Override
    public void run() {
        LOCK.lock();
    }
}

class Main {
    public static void main(String[] args) {
        Runnable r = new Tick();
        r.run();
    }
}
