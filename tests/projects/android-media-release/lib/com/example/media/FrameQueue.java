package com.example.media;

/** At most one pending frame of type `F`. */
public class FrameQueue<F extends Frame> {
    private F pending;

    public void offer(F frame) {
        pending = frame;
    }

    public F peek() {
        return pending;
    }

    public void flush() {
        F f = pending;
        if (f != null) {
            f.release();
        }
        pending = null;
    }
}
