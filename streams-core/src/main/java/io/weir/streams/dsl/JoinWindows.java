package io.weir.streams.dsl;

import io.weir.streams.internals.Require;

import java.time.Duration;

/**
 * The join window of a stream–stream join ({@link EventStream#join(EventStream, java.util.function.BiFunction,
 * JoinWindows)}): records {@code l} of the left stream and {@code r} of the right stream with the same key
 * match when {@code l.t - before <= r.t <= l.t + after}. Immutable.
 *
 * <p>Time: a left record is held until the watermark reaches {@code l.t + after + allowedLateness} (a
 * right one until {@code r.t + before + allowedLateness}): its window's end plus the lateness. Every
 * record joins the partners held when it arrives; one that arrives before the watermark reaches its event
 * time plus the allowed lateness finds all of them. A record whose own window has closed on arrival still
 * joins the partners held and is not held itself; only one that then joins nothing is late: an outer
 * side emits it with null at once, an inner side sends it to the join's late-data side output. A held
 * record of an outer side that found no partner is emitted with null when it stops being held, and only
 * then, never followed by a pair.
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
     * How long after its window's end a record is still held for partners to come: buffers keep records
     * that much longer, a record that far behind the watermark still finds every partner, and an outer
     * join's null results wait that much longer. Zero by default.
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
