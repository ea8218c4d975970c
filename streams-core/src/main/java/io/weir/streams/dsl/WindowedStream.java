package io.weir.streams.dsl;

import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * A keyed, windowed stream: aggregate it per key and window. The aggregation emits panes when its
 * {@link Trigger} says (by default one ON_TIME pane per window when the watermark passes its end, and
 * one LATE pane per late record within the allowed lateness), holding what its {@link Refinement}
 * says (by default the full value). Every setting is checked when the topology is built: a trigger or
 * refinement that makes no sense for the windows fails there, with the operator's store in the message.
 */
public interface WindowedStream<K, V> {

    /**
     * Writes records that arrive too late for a window (past its allowed lateness), and records whose
     * event time is beyond the source's maximum future skew, to {@code topic} instead of only counting
     * them. See {@link LateRecord} for the record shape.
     */
    WindowedStream<K, V> lateRecordsTo(String topic);

    /** Fires panes as {@code trigger} says instead of {@link Trigger#onTime()}. */
    WindowedStream<K, V> withTrigger(Trigger trigger);

    /** Refines successive panes of a window as {@code refinement} says instead of {@link Refinement#ACCUMULATING}. */
    WindowedStream<K, V> withRefinement(Refinement refinement);

    /**
     * One result per window, when it can no longer change: {@code withTrigger(Trigger.atWindowClose())}.
     * The pane comes when the watermark passes the window's end plus its allowed lateness, holds the
     * late records accepted until then, and is marked ON_TIME and final. Unlike Kafka Streams'
     * {@code suppress}, it needs no buffer of its own: the window's state, kept until the window closes
     * anyway, is the buffer. The cost is latency: every result waits for the allowed lateness (and the
     * watermark delay). Accumulating refinement only.
     */
    WindowedStream<K, V> finalResultsOnly();

    /** Counts the records per key and window. */
    WindowedTable<K, Long> count(Materialized<K, Long> materialized);

    /** Counts the records per key and window, in a store with a generated name. */
    WindowedTable<K, Long> count();

    /** Combines the values per key and window with {@code reducer}. */
    WindowedTable<K, V> reduce(BinaryOperator<V> reducer, Materialized<K, V> materialized);

    /**
     * Folds the values per key and window into an aggregate starting from {@code initializer}. Not for
     * session windows, which merge: they need the form with a {@link Merger}.
     */
    <A> WindowedTable<K, A> aggregate(
            Supplier<A> initializer, Aggregator<? super K, ? super V, A> aggregator, Materialized<K, A> materialized);

    /**
     * Folds the values per key and window into an aggregate, and combines the aggregates of session
     * windows that a record merges with {@code merger}.
     */
    <A> WindowedTable<K, A> aggregate(
            Supplier<A> initializer,
            Aggregator<? super K, ? super V, A> aggregator,
            Merger<? super K, A> merger,
            Materialized<K, A> materialized);
}
