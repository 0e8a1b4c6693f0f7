// spec: lock
// expect: violation
// harness: public-methods
// why: on a cache miss resolve() releases the read lock to take the write lock but forgets
// to re-acquire the read lock before the outer finally unlocks it again: the read lock is
// unlocked twice (IllegalMonitorStateException at run time).
package org.example.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantReadWriteLock;

public class ConfigRegistry {
    private final ReentrantReadWriteLock rw = new ReentrantReadWriteLock();
    private final Map<String, Object> resolved = new HashMap<>();
    private final List<String> listeners = new ArrayList<>();
    private final PropertySource source;

    public ConfigRegistry(PropertySource source) {
        this.source = source;
    }

    public Object resolve(String key) {
        rw.readLock().lock();
        try {
            Object value = resolved.get(key);
            if (value != null) {
                return value;
            }
            // Upgrade: a read lock cannot be promoted, so drop it first.
            rw.readLock().unlock();
            rw.writeLock().lock();
            try {
                value = resolved.get(key);
                if (value == null) {
                    value = source.load(key);
                    resolved.put(key, value);
                }
            } finally {
                rw.writeLock().unlock();
            }
            return value;
        } finally {
            rw.readLock().unlock();
        }
    }

    public int intValue(String key, int fallback) {
        Object v = resolve(key);
        if (v instanceof Integer i) {
            return i.intValue();
        }
        if (v instanceof String s && !s.isEmpty()) {
            return Integer.parseInt(s.trim());
        }
        return fallback;
    }

    public List<String> keys() {
        List<String> out;
        rw.readLock().lock();
        try {
            out = new ArrayList<>(resolved.keySet());
        } finally {
            rw.readLock().unlock();
        }
        Collections.sort(out, new Comparator<String>() {
            @Override
            public int compare(String a, String b) {
                return a.compareToIgnoreCase(b);
            }
        });
        return out;
    }

    public void addListener(String name) {
        synchronized (this) {
            listeners.add(name);
        }
    }
}

interface PropertySource {
    Object load(String key);

    String name();
}
