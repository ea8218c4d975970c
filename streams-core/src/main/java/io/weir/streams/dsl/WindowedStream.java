package io.weir.streams.dsl;

import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * A keyed, windowed stream: aggregate it per key and window. The aggregation emits panes as the
 * event-time rules of {@link Windows} say (by default one ON_TIME pane per window when the watermark
 * passes its end, and one LATE pane per late record within the allowed lateness).
 */
public interface WindowedStream<K, V> {

    /**
     * Writes records that arrive too late for a window (past its allowed lateness), and records whose
     * event time is beyond the source's maximum future skew, to {@code topic} instead of only counting
     * them. See {@link LateRecord} for the record shape.
     */
    WindowedStream<K, V> lateRecordsTo(String topic);

    /** Counts the records per key and window. */
    WindowedTable<K, Long> count(Materialized<K, Long> materialized);

    /** Counts the records per key and window, in a store with a generated name. */
    WindowedTable<K, Long> count();

    /** Combines the values per key and window with {@code reducer}. */
    WindowedTable<K, V> reduce(BinaryOperator<V> reducer, Materialized<K, V> materialized);

    /** Folds the values per key and window into an aggregate starting from {@code initializer}. */
    <A> WindowedTable<K, A> aggregate(Supplier<A> initializer, Aggregator<? super K, ? super V, A> aggregator,
                                      Materialized<K, A> materialized);
}
