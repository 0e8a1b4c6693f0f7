// spec: lock
// expect: verified
// harness: public-methods
// why: the periodic flush is scheduled as a lambda that calls flush() (which locks and
// unlocks); the lambda runs whenever the scheduler calls it, and every path locks and
// unlocks in turn (before closures ran, this was `unknown`: the JVM agrees with `verified`).
package com.example.telemetry;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

public class MetricsReporter {
    private final Lock bufferLock = new ReentrantLock();
    private final Map<String, Long> counters = new HashMap<>();
    private final ScheduledExecutorService scheduler;
    private final MetricsSink sink;
    private boolean started;

    public MetricsReporter(MetricsSink sink) {
        this.sink = sink;
        this.scheduler = Executors.newSingleThreadScheduledExecutor();
    }

    public void start(long periodSeconds) {
        synchronized (this) {
            if (started) {
                return;
            }
            started = true;
        }
        scheduler.scheduleAtFixedRate(() -> flush(), periodSeconds, periodSeconds, TimeUnit.SECONDS);
    }

    public void increment(String name, Long delta) {
        long d = delta == null ? 1L : delta.longValue();
        bufferLock.lock();
        try {
            Long old = counters.get(name);
            counters.put(name, old == null ? d : old.longValue() + d);
        } finally {
            bufferLock.unlock();
        }
    }

    public void flush() {
        Map<String, Long> snapshot;
        bufferLock.lock();
        try {
            if (counters.isEmpty()) {
                return;
            }
            snapshot = new HashMap<>(counters);
            counters.clear();
        } finally {
            bufferLock.unlock();
        }
        sink.send(snapshot);
    }

    public void stop() {
        scheduler.shutdown();
        flush();
    }
}

interface MetricsSink {
    void send(Map<String, Long> snapshot);

    void close();
}
