package app;

import java.util.concurrent.locks.ReentrantLock;

/** Not the guard Main uses (Main imports util.concurrent.Guard): this one never unlocks. */
class Guard {
    private final ReentrantLock lock = new ReentrantLock();

    void run(Runnable task) {
        lock.lock();
        task.run();
    }
}
