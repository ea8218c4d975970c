package io.weir.streams.dsl;

import io.weir.streams.internals.Require;

import java.time.Duration;

/**
 * Fixed-size, non-overlapping windows aligned to the epoch: {@code [n*size, (n+1)*size)}. Each record
 * belongs to exactly one window.
 */
public final class TumblingWindows implements Windows {

    private final Duration size;
    private final Duration allowedLateness;

    private TumblingWindows(Duration size, Duration allowedLateness) {
        this.size = size;
        this.allowedLateness = allowedLateness;
    }

    /**
     * Windows of {@code size} (positive).
     *
     * @param size each window's length; at least 1 ms
     * @return tumbling windows without allowed lateness
     */
    public static TumblingWindows of(Duration size) {
        return new TumblingWindows(Require.positive("size", size), Duration.ZERO);
    }

    /**
     * Accept late records for {@code lateness} after each window's end (see {@link Windows}).
     *
     * @param lateness how long after a window's end late records are still taken; zero or more
     * @return a copy with that allowed lateness
     */
    public TumblingWindows withAllowedLateness(Duration lateness) {
        return new TumblingWindows(size, Require.nonNegative("allowedLateness", lateness));
    }

    /**
     * Each window's length.
     *
     * @return the window size
     */
    public Duration size() {
        return size;
    }

    @Override
    public Duration allowedLateness() {
        return allowedLateness;
    }

    @Override
    public String toString() {
        return "TumblingWindows[size=" + size + ", allowedLateness=" + allowedLateness + "]";
    }
}
