package io.weir.streams.internals.state;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The byte budget shared by the write-back caches of one stream thread's tasks: the thread's part of
 * {@code statestore.cache.max.bytes} (the instance's budget split evenly between its threads), or the
 * whole budget of a test driver. So the heap an instance's caches take does not grow with the tasks it
 * holds.
 *
 * <p>When the caches' dirty and clean entries together exceed it, the cache being written evicts its
 * own clean entries first, then those of the other caches ({@link #reclaim}), oldest first in each; if
 * the dirty entries alone exceed it, the thread commits early ({@link #exceeded}), after which they are
 * clean and can go. A cache joins when made and leaves when its task closes, returning its bytes.
 *
 * <p>Single-threaded, like the thread whose tasks share it. {@link #usedBytes()} is also read by metrics
 * on other threads without synchronisation: they see a recent value (a 64-bit JVM never tears a long),
 * which is enough for a gauge and keeps a memory fence off the per-record path.
 */
public final class CacheBudget {

    private final long maxBytes;
    private long usedBytes;
    private final Set<WriteBackCache> members = new LinkedHashSet<>();

    public CacheBudget(long maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("statestore.cache.max.bytes must be positive, was " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    void join(WriteBackCache cache) {
        members.add(cache);
    }

    void leave(WriteBackCache cache) {
        members.remove(cache);
    }

    void add(long bytes) {
        usedBytes += bytes;
    }

    /** Whether the caches hold more than the budget, even after evicting what they read. */
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

    /** Evicts clean entries of the caches other than {@code asking} until the budget is met or none is left. */
    void reclaim(WriteBackCache asking) {
        for (WriteBackCache cache : members) {
            if (!exceeded()) {
                return;
            }
            if (cache != asking) {
                cache.evictClean();
            }
        }
    }
}
