package com.example.media;

/** The activity's frames: one that takes a wake lock when released. */
final class Frames {
    private Frames() {}

    static Frame first(android.os.PowerManager pm) {
        return new LockFrame(pm);
    }
}
