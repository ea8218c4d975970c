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
     *
     * @param topic the late-data topic; it must exist (Weir does not create it)
     * @return a windowed stream with the same windows that writes late records there
     */
    WindowedStream<K, V> lateRecordsTo(String topic);

    /**
     * Fires panes as {@code trigger} says instead of {@link Trigger#onTime()}.
     *
     * @param trigger when panes fire
     * @return a windowed stream with the same windows and that trigger
     */
    WindowedStream<K, V> withTrigger(Trigger trigger);

    /**
     * Refines successive panes of a window as {@code refinement} says instead of {@link
     * Refinement#ACCUMULATING}.
     *
     * @param refinement what successive panes of a window hold
     * @return a windowed stream with the same windows and that refinement
     */
    WindowedStream<K, V> withRefinement(Refinement refinement);

    /**
     * One result per window, when it can no longer change: {@code withTrigger(Trigger.atWindowClose())}.
     * The pane comes when the watermark passes the window's end plus its allowed lateness, holds the
     * late records accepted until then, and is marked ON_TIME and final. Unlike Kafka Streams'
     * {@code suppress}, it needs no buffer of its own: the window's state, kept until the window closes
     * anyway, is the buffer. The cost is latency: every result waits for the allowed lateness (and the
     * watermark delay). Accumulating refinement only.
     *
     * @return a windowed stream with the same windows and the at-window-close trigger
     */
    WindowedStream<K, V> finalResultsOnly();

    /**
     * Counts the records per key and window.
     *
     * @param materialized the store of the counts: its name, type, key serde and logging
     * @return the count per key and window, pane by pane
     */
    WindowedTable<K, Long> count(Materialized<K, Long> materialized);

    /**
     * Counts the records per key and window, in a store with a generated name.
     *
     * @return the count per key and window, pane by pane
     */
    WindowedTable<K, Long> count();

    /**
     * Combines the values per key and window with {@code reducer}.
     *
     * @param reducer combines a window's value so far with a new value
     * @param materialized the store of the windows: its name, type, serdes and logging
     * @return the reduced value per key and window, pane by pane
     */
    WindowedTable<K, V> reduce(BinaryOperator<V> reducer, Materialized<K, V> materialized);

    /**
     * Folds the values per key and window into an aggregate starting from {@code initializer}. Not for
     * session windows, which merge: they need the form with a {@link Merger}.
     *
     * @param <A> the aggregate type
     * @param initializer gives the aggregate of a window before its first record
     * @param aggregator adds a record to its window's aggregate
     * @param materialized the store of the windows: its name, type, serdes (the value serde is required) and
     *     logging
     * @return the aggregate per key and window, pane by pane
     */
    <A> WindowedTable<K, A> aggregate(
            Supplier<A> initializer, Aggregator<? super K, ? super V, A> aggregator, Materialized<K, A> materialized);

    /**
     * Folds the values per key and window into an aggregate, and combines the aggregates of session
     * windows that a record merges with {@code merger}.
     *
     * @param <A> the aggregate type
     * @param initializer gives the aggregate of a window before its first record
     * @param aggregator adds a record to its window's aggregate
     * @param merger combines the aggregates of two session windows that a record joins into one
     * @param materialized the store of the windows: its name, type, serdes (the value serde is required) and
     *     logging
     * @return the aggregate per key and window, pane by pane
     */
    <A> WindowedTable<K, A> aggregate(
            Supplier<A> initializer,
            Aggregator<? super K, ? super V, A> aggregator,
            Merger<? super K, A> merger,
            Materialized<K, A> materialized);
}
