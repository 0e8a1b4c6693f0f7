package com.example.media;

import android.os.PowerManager;

/** A frame whose `release()` takes a wake lock of its own and keeps it. */
public class LockFrame extends Frame {
    private final PowerManager pm;

    public LockFrame(PowerManager pm) {
        this.pm = pm;
    }

    @Override
    public void release() {
        PowerManager.WakeLock held = pm.newWakeLock(PowerManager.PARTIAL_WAKE_LOCK, "frame");
        held.acquire();
    }
}
