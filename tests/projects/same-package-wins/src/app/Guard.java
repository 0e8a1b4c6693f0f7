package app;

import java.util.concurrent.locks.ReentrantLock;

/** The guard of this package: it never unlocks. */
class Guard {
    private final ReentrantLock lock = new ReentrantLock();

    void run(Runnable task) {
        lock.lock();
        task.run();
    }
}
