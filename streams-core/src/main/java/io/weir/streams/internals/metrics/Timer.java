package io.weir.streams.internals.metrics;

/**
 * Timed events: how many, their summed duration, and the longest of the last 30 to 60 seconds. Written by
 * one thread, readable from any. The maximum is kept per 30-second window: {@link #maxNanos()} reports
 * the current window's and the previous one's, so a spike stays visible for at least one window.
 */
// One writer: volatile only publishes each value to the threads reading metrics.
@SuppressWarnings("NonAtomicVolatileUpdate")
public final class Timer {

    static final long WINDOW_NANOS = 30_000_000_000L;

    private volatile long count;
    private volatile long totalNanos;
    private volatile long windowStart = System.nanoTime();
    private volatile long windowMax;
    private volatile long previousMax;

    /** One event that took {@code nanos}. */
    public void record(long nanos) {
        record(1, nanos);
    }

    /**
     * {@code events} events that together took {@code nanos}, timed as one span: each counts as the
     * average, for the maximum.
     */
    public void record(long events, long nanos) {
        if (events <= 0) {
            return;
        }
        long now = System.nanoTime();
        long start = windowStart;
        if (now - start >= WINDOW_NANOS) {
            previousMax = now - start < 2 * WINDOW_NANOS ? windowMax : 0;
            windowMax = 0;
            windowStart = now;
        }
        count += events;
        totalNanos += nanos;
        long each = nanos / events;
        if (each > windowMax) {
            windowMax = each;
        }
    }

    public long count() {
        return count;
    }

    public long totalNanos() {
        return totalNanos;
    }

    /** The longest event recorded in the last 30 to 60 seconds; 0 if none. */
    public long maxNanos() {
        long age = System.nanoTime() - windowStart;
        if (age >= 2 * WINDOW_NANOS) {
            return 0;
        }
        if (age >= WINDOW_NANOS) {
            return windowMax;
        }
        return Math.max(windowMax, previousMax);
    }
}
