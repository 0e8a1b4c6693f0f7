package net;

import java.util.concurrent.locks.ReentrantLock;

public class Request {
    static final ReentrantLock LOCK = new ReentrantLock();

    /** Builds under the lock and lets it go. */
    public static class Builder {
        public Request build() {
            LOCK.lock();
            try {
                return new Request();
            } finally {
                LOCK.unlock();
            }
        }
    }
}
