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
     * @param difference the most two matching records' event times may differ, either way; zero or more
     * @return join windows with that difference before and after, and no allowed lateness
     * @throws IllegalArgumentException if {@code difference} is negative
     */
    public static JoinWindows of(Duration difference) {
        Require.nonNegative("difference", difference);
        return new JoinWindows(difference, difference, Duration.ZERO);
    }

    /**
     * A right record matches a left one up to {@code before} before it.
     *
     * @param before how far before a left record's event time a right record may be; zero or more
     * @return a copy with that bound
     */
    public JoinWindows withBefore(Duration before) {
        return new JoinWindows(Require.nonNegative("before", before), after, allowedLateness);
    }

    /**
     * A right record matches a left one up to {@code after} after it.
     *
     * @param after how far after a left record's event time a right record may be; zero or more
     * @return a copy with that bound
     */
    public JoinWindows withAfter(Duration after) {
        return new JoinWindows(before, Require.nonNegative("after", after), allowedLateness);
    }

    /**
     * How long after its window's end a record is still held for partners to come: buffers keep records
     * that much longer, a record that far behind the watermark still finds every partner, and an outer
     * join's null results wait that much longer. Zero by default.
     *
     * @param lateness how long after its window's end a record is still held; zero or more
     * @return a copy with that allowed lateness
     */
    public JoinWindows withAllowedLateness(Duration lateness) {
        return new JoinWindows(before, after, Require.nonNegative("allowedLateness", lateness));
    }

    /**
     * How far before a left record a right record may be and still match.
     *
     * @return the bound before; zero or more
     */
    public Duration before() {
        return before;
    }

    /**
     * How far after a left record a right record may be and still match.
     *
     * @return the bound after; zero or more
     */
    public Duration after() {
        return after;
    }

    /**
     * How long after its window's end a record is still held for partners.
     *
     * @return the allowed lateness; zero unless set
     */
    public Duration allowedLateness() {
        return allowedLateness;
    }

    @Override
    public String toString() {
        return "JoinWindows[before=" + before + ", after=" + after + ", allowedLateness=" + allowedLateness + "]";
    }
}
