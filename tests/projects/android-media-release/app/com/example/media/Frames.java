package com.example.media;

/** The activity's frames: plain ones. */
final class Frames {
    private Frames() {}

    static Frame first(android.os.PowerManager pm) {
        return new Frame();
    }
}
