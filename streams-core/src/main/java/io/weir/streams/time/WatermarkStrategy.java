package io.weir.streams.time;

import io.weir.streams.internals.Require;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How a source's watermark follows its event times. Immutable; build with a factory and refine with
 * {@code withXxx}:
 *
 * <pre>{@code
 * WatermarkStrategy.boundedOutOfOrderness(Duration.ofSeconds(5))
 *                  .withIdleness(Duration.ofSeconds(30))
 *                  .withMaxFutureSkew(Duration.ofMinutes(5))
 * }</pre>
 *
 * <p>Semantics (per input partition {@code p}, see docs/concepts/event-time.md):
 * <ul>
 *   <li>{@code W(p) = maxSeenEventTime(p) - delay - 1 ms}; before its first record {@code W(p)} is
 *       minus infinity.</li>
 *   <li>With idleness {@code i}: a partition that has produced no record for {@code i} of processing
 *       time is idle and left out of the task's minimum; its next record makes it active again.
 *       Without idleness, a silent partition holds the task's watermark back.</li>
 *   <li>With a maximum future skew {@code s} ({@link #DEFAULT_MAX_FUTURE_SKEW} unless set): a record
 *       whose event time is more than {@code s} ahead of processing time is invalid. It never advances
 *       the watermark; keyed and windowed operators send it to their late-data side output (reason
 *       {@code FUTURE_TIMESTAMP}) or drop and count it; a table still takes it as its key's update
 *       (a table takes every update), but it does not move the table's watermark either.</li>
 * </ul>
 * The task's watermark is the minimum of {@code W(p)} over its non-idle partitions, never moves
 * back, and advances after each record is processed.
 */
public final class WatermarkStrategy {

    /**
     * The maximum future skew unless {@link #withMaxFutureSkew} or {@link #withoutMaxFutureSkew} says
     * otherwise: one hour. Without a bound, one record stamped years ahead (a device clock, a bad field)
     * would move its partition's watermark there, and every later record would be late for good, also
     * after a restart, since the watermark is committed. An hour is the bound Kafka 4 brokers put on
     * record timestamps by default ({@code log.message.timestamp.after.max.ms}): a record further ahead
     * could not be written to a topic with its event time as timestamp anyway, and producers whose clocks
     * are minutes off are not refused. The damage one record can do is one hour of lateness; a
     * service that cannot afford that sets a tighter bound, e.g. {@code withMaxFutureSkew(Duration.ofMinutes(1))}.
     */
    public static final Duration DEFAULT_MAX_FUTURE_SKEW = Duration.ofHours(1);

    private final Duration delay;
    private final @Nullable Duration idleness;
    private final @Nullable Duration maxFutureSkew;

    private WatermarkStrategy(Duration delay, @Nullable Duration idleness, @Nullable Duration maxFutureSkew) {
        this.delay = delay;
        this.idleness = idleness;
        this.maxFutureSkew = maxFutureSkew;
    }

    /** Watermarks that trail the highest event time seen by {@code delay}: records up to that much out of order are on time. */
    public static WatermarkStrategy boundedOutOfOrderness(Duration delay) {
        Require.nonNegative("delay", delay);
        return new WatermarkStrategy(delay, null, DEFAULT_MAX_FUTURE_SKEW);
    }

    /** For sources whose event times never decrease: a delay of zero. */
    public static WatermarkStrategy forMonotonousTimestamps() {
        return new WatermarkStrategy(Duration.ZERO, null, DEFAULT_MAX_FUTURE_SKEW);
    }

    /** Leaves a partition out of the watermark after {@code idleness} of processing time without records. */
    public WatermarkStrategy withIdleness(Duration idleness) {
        Require.positive("idleness", idleness);
        return new WatermarkStrategy(delay, idleness, maxFutureSkew);
    }

    /** Treats records more than {@code skew} ahead of processing time as invalid (see the class docs). */
    public WatermarkStrategy withMaxFutureSkew(Duration skew) {
        Require.nonNegative("maxFutureSkew", skew);
        return new WatermarkStrategy(delay, idleness, skew);
    }

    /**
     * Trusts every event time, however far ahead of processing time: for sources whose event times are
     * legitimately in the future (scheduled events). One record stamped years ahead then moves the
     * watermark years ahead; see {@link #DEFAULT_MAX_FUTURE_SKEW}.
     */
    public WatermarkStrategy withoutMaxFutureSkew() {
        return new WatermarkStrategy(delay, idleness, null);
    }

    public Duration delay() {
        return delay;
    }

    public Optional<Duration> idleness() {
        return Optional.ofNullable(idleness);
    }

    /** The maximum future skew in effect: empty only after {@link #withoutMaxFutureSkew()}. */
    public Optional<Duration> maxFutureSkew() {
        return Optional.ofNullable(maxFutureSkew);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WatermarkStrategy w
                && w.delay.equals(delay)
                && Objects.equals(w.idleness, idleness)
                && Objects.equals(w.maxFutureSkew, maxFutureSkew);
    }

    @Override
    public int hashCode() {
        return Objects.hash(delay, idleness, maxFutureSkew);
    }

    @Override
    public String toString() {
        return "WatermarkStrategy[delay=" + delay + (idleness != null ? ", idleness=" + idleness : "")
                + (maxFutureSkew != null ? ", maxFutureSkew=" + maxFutureSkew : "") + "]";
    }
}
