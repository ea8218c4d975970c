package io.weir.streams.dsl;

import io.weir.streams.internals.Require;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * When a windowed aggregation emits a pane of a window. Immutable; build one from a factory and
 * decorate it:
 * <pre>{@code
 * Trigger.onTime()                                   // the default: one ON_TIME pane at the window's end
 *        .withEarlyFirings(Duration.ofSeconds(5))     // plus EARLY panes every 5 s of processing time
 *        .withLateFirings(Duration.ofMinutes(1));     // and LATE panes at most once a minute
 * }</pre>
 *
 * <p>What fires, for a window {@code [start, end)} with allowed lateness {@code L}, against the
 * watermark {@code W}:
 * <ul>
 *   <li><b>EARLY</b> (only while {@code W < end - 1}): with {@link #withEarlyFirings(Duration)}, at
 *       every tick of processing time (ticks are multiples of the interval), each window that changed
 *       since its last pane emits one; with {@link #afterCount(long)}, a window emits one as soon as
 *       it has taken {@code n} records since its last pane. Both may be combined.</li>
 *   <li><b>ON_TIME</b>: when {@code W} reaches {@code end - 1}, a window that changed since its last
 *       pane (or never emitted one) emits one. A window whose last EARLY pane already holds its value
 *       emits none; a window that got no data in time emits none either, its first pane is a late one.</li>
 *   <li><b>LATE</b> (while {@code end - 1 <= W < end - 1 + L}): by default one per late record, at
 *       once; with {@link #withLateFirings(Duration)}, at most one per interval of processing time for
 *       each window that changed. Changes a late interval has not emitted yet are emitted when the
 *       window closes ({@code W} reaches {@code end - 1 + L}), in a pane marked final.</li>
 * </ul>
 * {@link #atWindowClose()} is the exception: one pane per window, when the window closes.
 *
 * <p>Which windows take which triggers is checked when the topology is built: global windows never
 * reach their end, so they need early firings; they have no lateness, so they take no late firings.
 */
public final class Trigger {

    private final @Nullable Duration earlyInterval;
    private final long earlyCount;
    private final @Nullable Duration lateInterval;
    private final boolean atWindowClose;

    private Trigger(
            @Nullable Duration earlyInterval, long earlyCount, @Nullable Duration lateInterval, boolean atWindowClose) {
        this.earlyInterval = earlyInterval;
        this.earlyCount = earlyCount;
        this.lateInterval = lateInterval;
        this.atWindowClose = atWindowClose;
    }

    /**
     * One ON_TIME pane when the watermark passes the window's end, then a LATE pane per late record. The
     * default.
     *
     * @return the default trigger
     */
    public static Trigger onTime() {
        return new Trigger(null, 0, null, false);
    }

    /**
     * {@link #onTime()} plus an EARLY pane each time a window has taken {@code n} records since its
     * last pane: with global windows, "every n records".
     *
     * @param n the records a window takes between EARLY panes; from 1 to {@link Integer#MAX_VALUE}
     * @return a trigger with count-based early firings
     * @throws IllegalArgumentException if {@code n} is out of range
     */
    public static Trigger afterCount(long n) {
        if (n <= 0 || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "Trigger.afterCount: the count must be between 1 and " + Integer.MAX_VALUE + ", got " + n);
        }
        return new Trigger(null, n, null, false);
    }

    /**
     * Final results only: one pane per window, emitted when the window closes (the watermark reaches
     * {@code end - 1 + L}), marked ON_TIME and final; late records within the allowed lateness are in
     * it. With no allowed lateness that is the moment of the on-time pane. It keeps no more state
     * than the default trigger (the window's state lives until it closes either way), but every
     * result waits for the allowed lateness; see {@link WindowedStream#finalResultsOnly()}.
     *
     * @return the final-results trigger
     */
    public static Trigger atWindowClose() {
        return new Trigger(null, 0, null, true);
    }

    /**
     * Adds EARLY panes: at each tick of processing time (every {@code interval}, aligned to
     * multiples of it), every window that changed since its last pane and whose end the watermark
     * has not reached emits one.
     *
     * @param interval the processing time between ticks; at least 1 ms
     * @return a copy with early firings at that interval
     * @throws IllegalArgumentException if {@code interval} is shorter than 1 ms
     * @throws IllegalStateException    on {@link #atWindowClose()}
     */
    public Trigger withEarlyFirings(Duration interval) {
        requireNotAtClose("withEarlyFirings");
        return new Trigger(
                Require.positive("Trigger.withEarlyFirings interval", interval), earlyCount, lateInterval, false);
    }

    /**
     * Late panes at most once per {@code interval} of processing time per window, instead of one per
     * late record: for windows that take many late records. What has not been emitted when the
     * window closes is emitted then.
     *
     * @param interval the least processing time between two LATE panes of a window; at least 1 ms
     * @return a copy with rate-limited late firings
     * @throws IllegalArgumentException if {@code interval} is shorter than 1 ms (per record is
     *                                  {@link #withLateFiringsPerRecord()})
     * @throws IllegalStateException    on {@link #atWindowClose()}
     */
    public Trigger withLateFirings(Duration interval) {
        requireNotAtClose("withLateFirings");
        return new Trigger(
                earlyInterval,
                earlyCount,
                Require.positive(
                        "Trigger.withLateFirings interval (for a pane per record use withLateFiringsPerRecord())",
                        interval),
                false);
    }

    /**
     * A LATE pane for every late record, at once (the default).
     *
     * @return a copy that fires a LATE pane per late record
     * @throws IllegalStateException on {@link #atWindowClose()}
     */
    public Trigger withLateFiringsPerRecord() {
        requireNotAtClose("withLateFiringsPerRecord");
        return new Trigger(earlyInterval, earlyCount, null, false);
    }

    /**
     * The processing-time interval of early firings, if any.
     *
     * @return the interval, or empty without time-based early firings
     */
    public Optional<Duration> earlyFiringInterval() {
        return Optional.ofNullable(earlyInterval);
    }

    /**
     * The record count of early firings, if any.
     *
     * @return the count, or empty without count-based early firings
     */
    public OptionalLong earlyFiringCount() {
        return earlyCount == 0 ? OptionalLong.empty() : OptionalLong.of(earlyCount);
    }

    /**
     * The processing-time interval of late firings; empty means one late pane per late record.
     *
     * @return the interval, or empty for a pane per late record
     */
    public Optional<Duration> lateFiringInterval() {
        return Optional.ofNullable(lateInterval);
    }

    /**
     * Whether this is {@link #atWindowClose()}.
     *
     * @return true for the trigger {@link #atWindowClose()} made
     */
    public boolean firesAtWindowCloseOnly() {
        return atWindowClose;
    }

    /**
     * Whether panes can fire before the window's end.
     *
     * @return true with time- or count-based early firings
     */
    public boolean firesEarly() {
        return earlyInterval != null || earlyCount > 0;
    }

    private void requireNotAtClose(String method) {
        if (atWindowClose) {
            throw new IllegalStateException(
                    "Trigger.atWindowClose() fires once per window; " + method + " makes no sense on it");
        }
    }

    @Override
    public String toString() {
        if (atWindowClose) {
            return "Trigger.atWindowClose()";
        }
        StringBuilder s =
                new StringBuilder(earlyCount > 0 ? "Trigger.afterCount(" + earlyCount + ")" : "Trigger.onTime()");
        if (earlyInterval != null) {
            s.append(".withEarlyFirings(").append(earlyInterval).append(')');
        }
        if (lateInterval != null) {
            s.append(".withLateFirings(").append(lateInterval).append(')');
        }
        return s.toString();
    }
}
