// spec: lock
// expect: violation
// harness: public-methods
// why: borrow() takes the pool lock and, when the pool is exhausted and the caller does not
// want to wait, returns null without unlocking; the inner PooledConnection releases correctly.
package org.example.db.pool;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

public class ConnectionPool {
    private final Lock lock = new ReentrantLock();
    private final Deque<PooledConnection> idle = new ArrayDeque<>();
    private final String jdbcUrl;
    private final int maxSize;
    private int leased;

    public ConnectionPool(String jdbcUrl, int maxSize) {
        this.jdbcUrl = jdbcUrl;
        this.maxSize = maxSize;
    }

    /** Hands out an idle connection, opening a new one while under the limit. */
    public PooledConnection borrow(boolean failFast) {
        lock.lock();
        if (idle.isEmpty() && leased >= maxSize) {
            if (failFast) {
                // BUG: the lock is still held here.
                return null;
            }
            awaitReturn();
        }
        PooledConnection c = idle.poll();
        if (c == null) {
            c = new PooledConnection(Driver.connect(jdbcUrl));
        }
        leased++;
        lock.unlock();
        return c;
    }

    public int available() {
        lock.lock();
        try {
            return idle.size();
        } finally {
            lock.unlock();
        }
    }

    private void awaitReturn() {
        Thread.yield();
    }

    /** A leased connection; close() gives it back to the pool that created it. */
    public class PooledConnection {
        private final Object raw;
        private boolean returned;

        PooledConnection(Object raw) {
            this.raw = raw;
        }

        public void close() {
            ConnectionPool.this.lock.lock();
            try {
                if (!returned) {
                    returned = true;
                    leased--;
                    idle.push(this);
                }
            } finally {
                ConnectionPool.this.lock.unlock();
            }
        }

        public Object unwrap() {
            return raw;
        }
    }
}

final class Driver {
    private Driver() {
    }

    static Object connect(String url) {
        return java.sql.DriverManager.getConnection(url);
    }
}
