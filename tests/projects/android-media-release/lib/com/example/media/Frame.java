package com.example.media;

/** A decoded frame; releasing it returns its buffer. */
public class Frame {
    private int buffers = 1;

    public void release() {
        buffers = 0;
    }
}
