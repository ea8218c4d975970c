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
 *   <li>With a maximum future skew {@code s}: a record whose event time is more than {@code s} ahead of
 *       processing time is invalid. It never advances the watermark; keyed and windowed operators send it
 *       to their late-data side output (reason {@code FUTURE_TIMESTAMP}) or drop and count it; a table still
 *       takes it as its key's update (a table takes every update), but it does not move the table's
 *       watermark either. A strategy that says nothing of it takes the application's {@code
 *       max.future.skew.ms} (one hour by default, see {@code StreamsConfig.MAX_FUTURE_SKEW_MS}).</li>
 * </ul>
 * The task's watermark is the minimum of {@code W(p)} over its non-idle partitions, never moves
 * back, and advances after each record is processed.
 */
public final class WatermarkStrategy {

    private final Duration delay;
    private final @Nullable Duration idleness;
    private final @Nullable Duration maxFutureSkew;
    /** Whether this strategy sets the future skew (a bound, or none) rather than leaving it to the application. */
    private final boolean futureSkewSet;

    private WatermarkStrategy(
            Duration delay, @Nullable Duration idleness, @Nullable Duration maxFutureSkew, boolean futureSkewSet) {
        this.delay = delay;
        this.idleness = idleness;
        this.maxFutureSkew = maxFutureSkew;
        this.futureSkewSet = futureSkewSet;
    }

    /**
     * Watermarks that trail the highest event time seen by {@code delay}: records up to that much out of order
     * are on time.
     *
     * @param delay how far behind the highest event time seen the watermark trails; zero or more
     * @return a strategy with that delay, no idleness, and the application's maximum future skew
     */
    public static WatermarkStrategy boundedOutOfOrderness(Duration delay) {
        Require.nonNegative("delay", delay);
        return new WatermarkStrategy(delay, null, null, false);
    }

    /**
     * For sources whose event times never decrease: a delay of zero.
     *
     * @return a strategy with no delay, no idleness, and the application's maximum future skew
     */
    public static WatermarkStrategy forMonotonousTimestamps() {
        return new WatermarkStrategy(Duration.ZERO, null, null, false);
    }

    /**
     * Leaves a partition out of the watermark after {@code idleness} of processing time without records.
     *
     * @param idleness processing time without records after which a partition is idle; at least 1 ms
     * @return a copy with that idleness
     */
    public WatermarkStrategy withIdleness(Duration idleness) {
        Require.positive("idleness", idleness);
        return new WatermarkStrategy(delay, idleness, maxFutureSkew, futureSkewSet);
    }

    /**
     * Treats records more than {@code skew} ahead of processing time as invalid (see the class docs).
     *
     * @param skew how far ahead of processing time an event time may be; zero or more
     * @return a copy with that bound
     */
    public WatermarkStrategy withMaxFutureSkew(Duration skew) {
        Require.nonNegative("maxFutureSkew", skew);
        return new WatermarkStrategy(delay, idleness, skew, true);
    }

    /**
     * Trusts every event time, however far ahead of processing time: for sources whose event times are
     * legitimately in the future (scheduled events), whatever the application's {@code max.future.skew.ms}.
     * One record stamped years ahead then moves the watermark years ahead.
     *
     * @return a copy with no bound on future event times
     */
    public WatermarkStrategy withoutMaxFutureSkew() {
        return new WatermarkStrategy(delay, idleness, null, true);
    }

    /**
     * How far the watermark trails the highest event time seen.
     *
     * @return the delay; zero for {@link #forMonotonousTimestamps()}
     */
    public Duration delay() {
        return delay;
    }

    /**
     * How long a partition may go without records before it is left out of the watermark.
     *
     * @return the idleness; empty when a silent partition holds the watermark back
     */
    public Optional<Duration> idleness() {
        return Optional.ofNullable(idleness);
    }

    /**
     * The maximum future skew this strategy sets: empty when it sets none ({@link #withoutMaxFutureSkew()})
     * or leaves it to the application ({@link #futureSkewSet()} false).
     *
     * @return the bound this strategy sets, if any
     */
    public Optional<Duration> maxFutureSkew() {
        return Optional.ofNullable(maxFutureSkew);
    }

    /**
     * Whether this strategy says what the maximum future skew is ({@link #withMaxFutureSkew} or {@link
     * #withoutMaxFutureSkew}); if not, the application's {@code max.future.skew.ms} applies.
     *
     * @return true if this strategy sets the bound (or its absence) itself
     */
    public boolean futureSkewSet() {
        return futureSkewSet;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WatermarkStrategy w
                && w.delay.equals(delay)
                && Objects.equals(w.idleness, idleness)
                && Objects.equals(w.maxFutureSkew, maxFutureSkew)
                && w.futureSkewSet == futureSkewSet;
    }

    @Override
    public int hashCode() {
        return Objects.hash(delay, idleness, maxFutureSkew, futureSkewSet);
    }

    @Override
    public String toString() {
        return "WatermarkStrategy[delay=" + delay + (idleness != null ? ", idleness=" + idleness : "")
                + (maxFutureSkew != null
                        ? ", maxFutureSkew=" + maxFutureSkew
                        : futureSkewSet ? ", no maxFutureSkew" : "")
                + "]";
    }
}
