package io.weir.streams.internals.state;

/**
 * The byte budget shared by the write-back caches of one task ({@code cache.max.bytes.per.task}).
 * When the caches' dirty and clean entries together exceed it, clean entries are evicted and, if
 * that is not enough, the task commits early. Single-threaded, like its task.
 */
public final class CacheBudget {

    private final long maxBytes;
    private long usedBytes;

    public CacheBudget(long maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("cache.max.bytes.per.task must be positive, was " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    void add(long bytes) {
        usedBytes += bytes;
    }

    public boolean exceeded() {
        return usedBytes > maxBytes;
    }

    public long usedBytes() {
        return usedBytes;
    }

    /** What is left before the budget is exceeded (negative once it is). */
    long remainingBytes() {
        return maxBytes - usedBytes;
    }
}
