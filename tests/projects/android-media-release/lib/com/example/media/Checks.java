package com.example.media;

/** Argument checks. */
public final class Checks {
    private Checks() {}

    public static <T> T checkNotNull(T reference) {
        if (reference == null) {
            throw new NullPointerException();
        }
        return reference;
    }
}
