package util.concurrent;

import java.util.concurrent.locks.ReentrantLock;

/** Runs a task while holding its lock, and always lets it go. */
public class Guard {
    private final ReentrantLock lock = new ReentrantLock();

    public void run(Runnable task) {
        lock.lock();
        try {
            task.run();
        } finally {
            lock.unlock();
        }
    }
}
