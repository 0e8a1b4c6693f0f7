package util;

import java.util.concurrent.locks.ReentrantLock;

public final class Locks {
    public static final ReentrantLock SHARED = new ReentrantLock();

    public static void acquire(ReentrantLock l) {
        l.lock();
    }

    public static void release(ReentrantLock l) {
        l.unlock();
    }
}
