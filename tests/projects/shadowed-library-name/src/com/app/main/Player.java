package com.app.main;

import android.os.SystemClock;
import java.util.concurrent.locks.ReentrantLock;

/** Android's clock (imported), not the project's com.app.util.SystemClock. */
public class Player {
    private final ReentrantLock lock = new ReentrantLock();

    public static void main(String[] args) {
        new Player().tick();
    }

    void tick() {
        lock.lock();
        long now = SystemClock.elapsedRealtime();
        long later = android.os.SystemClock.uptimeMillis();
        lock.unlock();
    }
}
