package io.weir.streams.dsl;

import io.weir.streams.internals.Require;
import io.weir.streams.internals.TimeMath;

import java.time.Duration;

/**
 * Fixed-size windows that start every {@code advance}, aligned to the epoch:
 * {@code [n*advance, n*advance + size)}. A record belongs to {@code size / advance} windows (rounded
 * up where they do not divide).
 */
public final class HoppingWindows implements Windows {

    /**
     * The most windows one record may belong to: each is a store entry written per record, so beyond this a
     * single record costs more than a batch of thousands. Sliding windows serve fine-grained overlap.
     */
    public static final long MAX_WINDOWS_PER_RECORD = 100_000;

    private final Duration size;
    private final Duration advance;
    private final Duration allowedLateness;

    private HoppingWindows(Duration size, Duration advance, Duration allowedLateness) {
        this.size = size;
        this.advance = advance;
        this.allowedLateness = allowedLateness;
    }

    /**
     * Windows of {@code size} starting every {@code advance}.
     *
     * @param size each window's length; at least 1 ms
     * @param advance the distance between two windows' starts; at least 1 ms and at most {@code size}
     * @return hopping windows without allowed lateness
     * @throws IllegalArgumentException if either is not positive, {@code advance > size}, or a record would
     *     belong to more than {@link #MAX_WINDOWS_PER_RECORD} windows
     */
    public static HoppingWindows of(Duration size, Duration advance) {
        Require.positive("size", size);
        Require.positive("advance", advance);
        if (advance.compareTo(size) > 0) {
            throw new IllegalArgumentException("advance (" + advance + ") must not be larger than size (" + size
                    + "): records between windows would belong to none");
        }
        long perRecord = (TimeMath.millis(size) - 1) / TimeMath.millis(advance) + 1;
        if (perRecord > MAX_WINDOWS_PER_RECORD) {
            throw new IllegalArgumentException("size (" + size + ") / advance (" + advance + ") puts each record in "
                    + perRecord + " windows, more than " + MAX_WINDOWS_PER_RECORD + "; use a larger advance, or "
                    + "SlidingWindows for a window at every record");
        }
        return new HoppingWindows(size, advance, Duration.ZERO);
    }

    /**
     * Accept late records for {@code lateness} after each window's end (see {@link Windows}).
     *
     * @param lateness how long after a window's end late records are still taken; zero or more
     * @return a copy with that allowed lateness
     */
    public HoppingWindows withAllowedLateness(Duration lateness) {
        return new HoppingWindows(size, advance, Require.nonNegative("allowedLateness", lateness));
    }

    /**
     * Each window's length.
     *
     * @return the window size
     */
    public Duration size() {
        return size;
    }

    /**
     * The distance between the starts of two successive windows.
     *
     * @return the advance; at most the size
     */
    public Duration advance() {
        return advance;
    }

    @Override
    public Duration allowedLateness() {
        return allowedLateness;
    }

    @Override
    public String toString() {
        return "HoppingWindows[size=" + size + ", advance=" + advance + ", allowedLateness=" + allowedLateness + "]";
    }
}
