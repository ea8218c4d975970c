package io.weir.streams.dsl;

import io.weir.streams.internals.Require;

import java.time.Duration;

/**
 * Windows defined by the distance between records, as Kafka Streams defines them: two records fall
 * in a common window when their event times differ by at most {@code timeDifference}. A window holds
 * every record with event time in {@code [start, start + timeDifference]} (both inclusive), that is
 * {@code [start, end)} with {@code end = start + timeDifference + 1}; one window exists for each
 * distinct non-empty set of records so formed — the window ending at each record ("left") and the
 * window starting just after each record that has a successor within {@code timeDifference}
 * ("right").
 */
public final class SlidingWindows implements Windows {

    private final Duration timeDifference;
    private final Duration allowedLateness;

    private SlidingWindows(Duration timeDifference, Duration allowedLateness) {
        this.timeDifference = timeDifference;
        this.allowedLateness = allowedLateness;
    }

    /**
     * Windows over records at most {@code timeDifference} apart (positive).
     *
     * @param timeDifference the most two records' event times may differ to share a window; at least 1 ms
     * @return sliding windows without allowed lateness
     */
    public static SlidingWindows ofTimeDifference(Duration timeDifference) {
        return new SlidingWindows(Require.positive("timeDifference", timeDifference), Duration.ZERO);
    }

    /**
     * Accept late records for {@code lateness} after each window's end (see {@link Windows}).
     *
     * @param lateness how long after a window's end late records are still taken; zero or more
     * @return a copy with that allowed lateness
     */
    public SlidingWindows withAllowedLateness(Duration lateness) {
        return new SlidingWindows(timeDifference, Require.nonNegative("allowedLateness", lateness));
    }

    /**
     * The most two records' event times may differ to share a window.
     *
     * @return the time difference
     */
    public Duration timeDifference() {
        return timeDifference;
    }

    @Override
    public Duration allowedLateness() {
        return allowedLateness;
    }

    @Override
    public String toString() {
        return "SlidingWindows[timeDifference=" + timeDifference + ", allowedLateness=" + allowedLateness + "]";
    }
}
