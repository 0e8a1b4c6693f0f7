// spec: lock
// expect: violation
// harness: public-methods
// why: in tryAcquire() the REJECT branch of the switch over the overflow policy returns
// false while the bucket lock is still held; the other branches reach the unlock().
package io.example.gateway.ratelimit;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

public class RequestThrottler {

    public enum OverflowPolicy {
        REJECT,
        QUEUE,
        ALLOW_BURST
    }

    private final Lock bucketLock = new ReentrantLock();
    private final OverflowPolicy policy;
    private final long refillPerSecond;
    private long tokens;
    private long lastRefillNanos;
    private int queued;

    public RequestThrottler(OverflowPolicy policy, Long refillPerSecond) {
        assert refillPerSecond != null : "refill rate is required";
        this.policy = policy == null ? OverflowPolicy.REJECT : policy;
        this.refillPerSecond = refillPerSecond.longValue();
        this.tokens = this.refillPerSecond;
        this.lastRefillNanos = System.nanoTime();
    }

    /** Takes one token for a request; returns false when the request must be dropped. */
    public boolean tryAcquire(long nowNanos) {
        bucketLock.lock();
        refill(nowNanos);
        if (tokens > 0) {
            tokens--;
            bucketLock.unlock();
            return true;
        }
        switch (policy) {
            case REJECT:
                Metrics.increment("throttler.rejected");
                return false;
            case QUEUE:
                queued++;
                break;
            case ALLOW_BURST:
                tokens--;
                break;
            default:
                break;
        }
        bucketLock.unlock();
        return true;
    }

    public long availableTokens() {
        bucketLock.lock();
        try {
            return tokens;
        } finally {
            bucketLock.unlock();
        }
    }

    private void refill(long nowNanos) {
        long elapsed = nowNanos - lastRefillNanos;
        if (elapsed >= TimeUnit.SECONDS.toNanos(1)) {
            tokens = refillPerSecond;
            lastRefillNanos = nowNanos;
        }
    }
}

final class Metrics {
    private Metrics() {
    }

    static void increment(String name) {
        MetricRegistry.counter(name).inc();
    }
}
