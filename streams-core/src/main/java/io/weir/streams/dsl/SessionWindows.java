package io.weir.streams.dsl;

import io.weir.streams.internals.Require;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Optional;

/**
 * Per-key sessions: bursts of activity separated by more than {@code gap} of event time; records at
 * most {@code gap} apart share a session, as in Kafka Streams and Flink. A record at {@code t} opens
 * the window {@code [t, t + gap)}; windows of one key that overlap or touch are merged into one, so a
 * session is {@code [first record, last record + gap)}. A session's ON_TIME pane fires when
 * the watermark reaches {@code last record + gap - 1}.
 *
 * <p>A late record (within the allowed lateness of the session it lands in) may extend a session or
 * bridge two: the merged session replaces them, its aggregate is the aggregations' merge (see
 * {@link WindowedStream#aggregate(java.util.function.Supplier, Aggregator, Merger, Materialized)}), and under
 * {@link Refinement#ACCUMULATING_AND_RETRACTING} the replaced sessions' last panes are retracted.
 * Whether a record is too late is judged against the session it would join: it is dropped when the
 * watermark has passed the end plus allowed lateness of that merged session.
 *
 * <p>{@link #withMaxSessionLength(Duration)} caps a session: a record that would stretch a session
 * beyond it (from its first record's time to its end) starts a new session instead, and the capped
 * session takes no more records; it fires and closes as usual. A key that never pauses thus keeps a
 * new session every {@code maxSessionLength} of event time, each purged once the watermark passes
 * its end plus the allowed lateness, instead of one session whose state grows forever. No cap by
 * default.
 */
public final class SessionWindows implements Windows {

    private final Duration gap;
    private final Duration allowedLateness;
    private final @Nullable Duration maxSessionLength;

    private SessionWindows(Duration gap, Duration allowedLateness, @Nullable Duration maxSessionLength) {
        this.gap = gap;
        this.allowedLateness = allowedLateness;
        this.maxSessionLength = maxSessionLength;
    }

    /**
     * Sessions closed by {@code gap} (positive) of inactivity in event time.
     *
     * @param gap the inactivity that ends a session; at least 1 ms
     * @return session windows with that gap, no allowed lateness and no cap
     */
    public static SessionWindows withGap(Duration gap) {
        return new SessionWindows(Require.positive("gap", gap), Duration.ZERO, null);
    }

    /**
     * Accept late records for {@code lateness} after each session's end (see {@link Windows}).
     *
     * @param lateness how long after a session's end late records are still taken; zero or more
     * @return a copy with that allowed lateness
     */
    public SessionWindows withAllowedLateness(Duration lateness) {
        return new SessionWindows(gap, Require.nonNegative("allowedLateness", lateness), maxSessionLength);
    }

    /**
     * The longest a session may span, from its first record to its end (at least the gap).
     *
     * @param length the longest span of a session; at least the gap
     * @return a copy with that cap
     * @throws IllegalArgumentException if {@code length} is shorter than the gap
     */
    public SessionWindows withMaxSessionLength(Duration length) {
        Require.positive("maxSessionLength", length);
        if (length.compareTo(gap) < 0) {
            throw new IllegalArgumentException("maxSessionLength (" + length + ") must be at least the gap (" + gap
                    + "): a single record's session already spans the gap");
        }
        return new SessionWindows(gap, allowedLateness, length);
    }

    /**
     * The inactivity, in event time, that ends a session.
     *
     * @return the gap; at least 1 ms
     */
    public Duration gap() {
        return gap;
    }

    @Override
    public Duration allowedLateness() {
        return allowedLateness;
    }

    /**
     * The cap on a session's length; empty when sessions are not capped (the default).
     *
     * @return the cap, if one is set
     */
    public Optional<Duration> maxSessionLength() {
        return Optional.ofNullable(maxSessionLength);
    }

    @Override
    public String toString() {
        return "SessionWindows[gap=" + gap + ", allowedLateness=" + allowedLateness
                + (maxSessionLength != null ? ", maxSessionLength=" + maxSessionLength : "") + "]";
    }
}
