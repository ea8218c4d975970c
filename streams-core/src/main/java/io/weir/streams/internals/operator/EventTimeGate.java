package io.weir.streams.internals.operator;

import io.weir.streams.WeirMetrics;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;

/**
 * The event-time gate of one keyed operator node: which records it admits, the watermark it judges them
 * against, and when a span of event time is closed. Every stateful operator passes its records through
 * one, so they are judged alike and each outcome counts under one name:
 *
 * <ul>
 *   <li><b>Admission.</b> A record with a null key is counted ({@value WeirMetrics#NULL_KEY_RECORDS_SKIPPED}),
 *       logged at WARN (rate-limited) and skipped: there is no key to keep its state under. (A lookup join,
 *       which keeps no state for the record, counts a null key as {@value WeirMetrics#NULL_JOIN_KEYS}
 *       instead: that name is for a lookup that cannot be made.) A record whose event time was beyond its
 *       source's maximum future skew is refused through the operator's {@link LateDataOutput}
 *       ({@value WeirMetrics#FUTURE_RECORDS_DROPPED}, and the late-data topic when there is one): it must
 *       not enter state whose time it would distort.
 *   <li><b>The watermark.</b> The operator's own view: the task's when the operator starts, then each
 *       value its {@code onWatermark} hands to {@link #advance}, never going back. A record that an
 *       upstream node emits while the task's watermark advances reaches this operator before its own
 *       {@code onWatermark} runs, so it is judged against the watermark before the advance, as the record
 *       that caused it was.
 *   <li><b>Lateness.</b> A span of event time whose last millisecond is {@code T} (a window's, a join
 *       window's, a record's own) is closed once the watermark reaches {@code T + allowedLateness}: it
 *       takes no more records. Nothing is closed before the first watermark.
 * </ul>
 *
 * Single-threaded, like its task.
 */
public final class EventTimeGate {

    private final Counter nullKeys;
    private final DropWarning nullKeyWarning;
    private final LateDataOutput refusals;
    private final long allowedLateness;
    private long watermark;

    /**
     * @param refusals        where refused records go (counted, and side-output when it has a topic)
     * @param allowedLateness how long after a span's end it still takes records, in ms
     */
    public EventTimeGate(ProcessorContext context, LateDataOutput refusals, long allowedLateness) {
        if (allowedLateness < 0) {
            throw new IllegalArgumentException("allowedLateness must not be negative: " + allowedLateness);
        }
        this.nullKeys = context.metrics().counter(context.nodeName(), WeirMetrics.NULL_KEY_RECORDS_SKIPPED);
        this.nullKeyWarning = new DropWarning(
                context.nodeName(),
                "records with a null key",
                "Give them a key before grouping (selectKey or groupBy); counted as "
                        + WeirMetrics.NULL_KEY_RECORDS_SKIPPED + ".");
        this.refusals = refusals;
        this.allowedLateness = allowedLateness;
        this.watermark = context.watermark();
    }

    /** A gate for an operator that judges no lateness (tables, keyed processors): admission and watermark only. */
    public EventTimeGate(ProcessorContext context, LateDataOutput refusals) {
        this(context, refusals, 0);
    }

    /** Whether the operator processes {@code record}; if not, it has been counted (and side-output). */
    public boolean admits(Record<?, ?> record) {
        if (record.key() == null) {
            nullKeys.increment();
            nullKeyWarning.dropped(record, watermark);
            return false;
        }
        if (record.beyondFutureSkew()) {
            refusals.future(record, watermark);
            return false;
        }
        return true;
    }

    /** The operator's watermark: {@code Long.MIN_VALUE} until the first. */
    public long watermark() {
        return watermark;
    }

    /** Moves the watermark to {@code newWatermark}; false, changing nothing, unless that is later. */
    public boolean advance(long newWatermark) {
        if (newWatermark <= watermark) {
            return false;
        }
        watermark = newWatermark;
        return true;
    }

    /** The first watermark at which the span ending with millisecond {@code lastMillisecond} is closed. */
    public long closeTime(long lastMillisecond) {
        return TimeMath.plus(lastMillisecond, allowedLateness);
    }

    /** Whether the span ending with millisecond {@code lastMillisecond} is closed at the current watermark. */
    public boolean closed(long lastMillisecond) {
        return watermark != Long.MIN_VALUE && watermark >= closeTime(lastMillisecond);
    }

    /** The operator's refusals: where the records its closed spans refuse go. */
    public LateDataOutput refusals() {
        return refusals;
    }
}
