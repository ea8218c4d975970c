package io.weir.streams.internals.join;

import io.weir.streams.WeirMetrics;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import org.jspecify.annotations.Nullable;

import java.util.function.BiFunction;

/**
 * What a join that looks a record's partner up in a table does with the result, inner or left: a record
 * whose join key is null is counted ({@value WeirMetrics#NULL_JOIN_KEYS}), one with no row is counted
 * ({@value WeirMetrics#JOIN_MISSES}); an inner join drops both, a left join joins them with null. The
 * result keeps the record's key, event time and headers. Single-threaded, like its task.
 */
final class LookupResults<K, V, TV, VR> {

    private final ProcessorContext context;
    private final BiFunction<? super V, ? super @Nullable TV, ? extends VR> joiner;
    private final boolean left;
    private final Counter nullKeys;
    private final Counter misses;

    /** @param left whether a record with no row is joined with null (a left join) rather than dropped */
    LookupResults(
            ProcessorContext context, BiFunction<? super V, ? super @Nullable TV, ? extends VR> joiner, boolean left) {
        this.context = context;
        this.joiner = joiner;
        this.left = left;
        this.nullKeys = context.metrics().counter(context.nodeName(), WeirMetrics.NULL_JOIN_KEYS);
        this.misses = context.metrics().counter(context.nodeName(), WeirMetrics.JOIN_MISSES);
    }

    /** {@code record}'s join key is null: nothing to look up. */
    void nullKey(Record<K, V> record) {
        nullKeys.increment();
        if (left) {
            context.forward(record.withValue(joiner.apply(record.value(), null)));
        }
    }

    /** {@code record} looked up {@code row} (null: the table has none). */
    void found(Record<K, V> record, @Nullable TV row) {
        if (row == null) {
            misses.increment();
            if (!left) {
                return;
            }
        }
        context.forward(record.withValue(joiner.apply(record.value(), row)));
    }
}
