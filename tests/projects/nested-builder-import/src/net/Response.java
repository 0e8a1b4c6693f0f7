package net;

import java.util.concurrent.locks.ReentrantLock;

public class Response {
    static final ReentrantLock LOCK = new ReentrantLock();

    /** Forgets to let the lock go when the body is empty. */
    public static class Builder {
        private String body = "";

        public Builder body(String b) {
            body = b;
            return this;
        }

        public Response build() {
            LOCK.lock();
            if (body.isEmpty()) {
                return new Response();
            }
            LOCK.unlock();
            return new Response();
        }
    }
}
