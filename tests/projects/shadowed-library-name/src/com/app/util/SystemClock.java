package com.app.util;

import java.util.concurrent.locks.ReentrantLock;

/** The project's own clock: reading it takes a lock it never gives back. */
public class SystemClock {
    static final ReentrantLock LOCK = new ReentrantLock();

    public static long elapsedRealtime() {
        LOCK.lock();
        return 0;
    }
}
