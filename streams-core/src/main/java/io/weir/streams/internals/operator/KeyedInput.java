package io.weir.streams.internals.operator;

import io.weir.streams.WeirMetrics;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;

/**
 * The checks every keyed operator makes before it looks at a record: a record with a null key is
 * counted ({@code null-key-records-skipped}), logged at WARN (rate-limited) and skipped, since it has
 * no key to keep state under;
 * a record whose event time was beyond its source's maximum future skew is refused through the
 * operator's {@link LateDataOutput} (counted, and written to the late-data topic when there is one),
 * since it must not enter state whose time it would distort.
 */
public final class KeyedInput {

    private final Counter nullKeys;
    private final DropWarning nullKeyWarning;
    private final LateDataOutput refusals;

    public KeyedInput(ProcessorContext context, LateDataOutput refusals) {
        this.nullKeys = context.metrics().counter(context.nodeName(), WeirMetrics.NULL_KEY_RECORDS_SKIPPED);
        this.nullKeyWarning = new DropWarning(
                context.nodeName(),
                "records with a null key",
                "Give them a key before grouping (selectKey or groupBy); counted as "
                        + WeirMetrics.NULL_KEY_RECORDS_SKIPPED + ".");
        this.refusals = refusals;
    }

    /** Whether the operator processes {@code record}; if not, it has been counted (and side-output). */
    public boolean admits(Record<?, ?> record, long watermark) {
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
}
