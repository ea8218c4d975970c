package io.weir.streams.dsl;

import io.weir.streams.internals.Require;

import java.time.Duration;

/**
 * Fixed-size windows that start every {@code advance}, aligned to the epoch:
 * {@code [n*advance, n*advance + size)}. A record belongs to {@code size / advance} windows (rounded
 * up where they do not divide).
 */
public final class HoppingWindows implements Windows {

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
     * @throws IllegalArgumentException if either is not positive or {@code advance > size}
     */
    public static HoppingWindows of(Duration size, Duration advance) {
        Require.positive("size", size);
        Require.positive("advance", advance);
        if (advance.compareTo(size) > 0) {
            throw new IllegalArgumentException("advance (" + advance + ") must not be larger than size (" + size
                    + "): records between windows would belong to none");
        }
        return new HoppingWindows(size, advance, Duration.ZERO);
    }

    /** Accept late records for {@code lateness} after each window's end (see {@link Windows}). */
    public HoppingWindows withAllowedLateness(Duration lateness) {
        return new HoppingWindows(size, advance, Require.nonNegative("allowedLateness", lateness));
    }

    public Duration size() {
        return size;
    }

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
