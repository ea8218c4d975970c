package io.weir.streams.dsl;

import io.weir.streams.internals.Require;

import java.time.Duration;

/**
 * The join window of a stream–stream join ({@link EventStream#join(EventStream, java.util.function.BiFunction,
 * JoinWindows)}): records {@code l} of the left stream and {@code r} of the right stream with the same key
 * match when {@code l.t - before <= r.t <= l.t + after}. Immutable.
 *
 * <p>Time: a record is late, and goes to the join's late-data side output, when the watermark has reached
 * its event time plus the allowed lateness: a partner it could have matched may be gone. A left record is
 * kept until the watermark reaches {@code l.t + after + allowedLateness} (a right one until {@code r.t +
 * before + allowedLateness}): from then on no record that is not late can match it, so an outer join emits
 * it with null then, and only then.
 */
public final class JoinWindows {

    private final Duration before;
    private final Duration after;
    private final Duration allowedLateness;

    private JoinWindows(Duration before, Duration after, Duration allowedLateness) {
        this.before = before;
        this.after = after;
        this.allowedLateness = allowedLateness;
    }

    /**
     * Records match when their event times are at most {@code difference} apart, either way.
     *
     * @throws IllegalArgumentException if {@code difference} is negative
     */
    public static JoinWindows of(Duration difference) {
        Require.nonNegative("difference", difference);
        return new JoinWindows(difference, difference, Duration.ZERO);
    }

    /** A right record matches a left one up to {@code before} before it. */
    public JoinWindows withBefore(Duration before) {
        return new JoinWindows(Require.nonNegative("before", before), after, allowedLateness);
    }

    /** A right record matches a left one up to {@code after} after it. */
    public JoinWindows withAfter(Duration after) {
        return new JoinWindows(before, Require.nonNegative("after", after), allowedLateness);
    }

    /**
     * How far behind the watermark a record may be and still join; buffers keep records that much longer,
     * and an outer join's null results wait that much longer. Zero by default.
     */
    public JoinWindows withAllowedLateness(Duration lateness) {
        return new JoinWindows(before, after, Require.nonNegative("allowedLateness", lateness));
    }

    public Duration before() {
        return before;
    }

    public Duration after() {
        return after;
    }

    public Duration allowedLateness() {
        return allowedLateness;
    }

    @Override
    public String toString() {
        return "JoinWindows[before=" + before + ", after=" + after + ", allowedLateness=" + allowedLateness + "]";
    }
}
