// spec: lock
// expect: verified
// harness: public-methods
// why: every read goes through rw.readLock() and every write through rw.writeLock(), each
// released in a finally block; the model of ReentrantReadWriteLock returns the same lock on
// every call, so each lock() is matched by the unlock() of the same object.
package com.example.gallery.cache;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.logging.Logger;

/**
 * A small in-memory cache of decoded thumbnails, keyed by media id. Readers may run
 * concurrently; insertions and evictions take the write lock.
 */
public class ThumbnailCache {
    private static final Logger LOG = Logger.getLogger(ThumbnailCache.class.getName());
    private static final int DEFAULT_CAPACITY = 64;

    private final ReentrantReadWriteLock rw = new ReentrantReadWriteLock();
    private final Map<Long, Object> entries = new LinkedHashMap<>(16, 0.75f, true);
    private final int capacity;
    private long hits;
    private long misses;

    public ThumbnailCache(Integer configuredCapacity) {
        if (configuredCapacity == null) {
            capacity = DEFAULT_CAPACITY;
        } else {
            capacity = configuredCapacity.intValue();
        }
    }

    public Object get(Long mediaId) {
        if (mediaId == null) {
            return null;
        }
        rw.readLock().lock();
        try {
            Object thumb = entries.get(mediaId);
            if (thumb == null) {
                misses++;
                return null;
            }
            hits++;
            return thumb;
        } finally {
            rw.readLock().unlock();
        }
    }

    public void put(Long mediaId, Object bitmap) {
        if (bitmap instanceof byte[] raw && raw.length == 0) {
            LOG.warning("refusing to cache an empty thumbnail");
            return;
        }
        rw.writeLock().lock();
        try {
            entries.put(mediaId, bitmap);
            trimToSize(capacity);
        } finally {
            rw.writeLock().unlock();
        }
    }

    public void clear() {
        rw.writeLock().lock();
        try {
            entries.clear();
            hits = 0;
            misses = 0;
        } finally {
            rw.writeLock().unlock();
        }
        LOG.fine("thumbnail cache cleared");
    }

    public String stats() {
        rw.readLock().lock();
        try {
            return "hits=" + hits + " misses=" + misses + " size=" + entries.size();
        } finally {
            rw.readLock().unlock();
        }
    }

    // Called with the write lock held.
    private void trimToSize(int maxSize) {
        int size = entries.size();
        while (size > maxSize) {
            Long eldest = entries.keySet().iterator().next();
            entries.remove(eldest);
            size--;
        }
    }
}
