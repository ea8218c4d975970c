package io.weir.streams.dsl;

import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * A stream grouped by key, ready to be aggregated (into a {@link Table}, or per window with {@link
 * #windowedBy}), or handled by a keyed processor.
 *
 * <p>An aggregation without windows never ends and never refuses a record as late: every record with
 * a key is added to its key's row, whatever its event time (a record beyond its source's maximum future
 * skew is refused, as everywhere). A record with a null value is added like any other, as windowed
 * aggregations do; filter them out first where they mean nothing (Kafka Streams skips them). An
 * aggregator or reducer that returns null deletes the key's row: {@code reduce((previous, latest) ->
 * latest, ...)} is then the table of each key's latest value, deleted by a null value.
 */
public interface GroupedStream<K, V> {

    /**
     * Counts the records per key, into a table.
     *
     * @param materialized the store of the counts: its name, type, key serde and emission
     * @return the table of the number of records per key
     */
    Table<K, Long> count(Materialized<K, Long> materialized);

    /**
     * Counts the records per key, into a table with a generated store name.
     *
     * @return the table of the number of records per key
     */
    Table<K, Long> count();

    /**
     * Combines the values per key with {@code reducer}, into a table.
     *
     * @param reducer combines the key's aggregate so far with a new value; null deletes the key's row
     * @param materialized the store of the results: its name, type, serdes and emission
     * @return the table of the reduced value per key
     */
    Table<K, V> reduce(BinaryOperator<V> reducer, Materialized<K, V> materialized);

    /**
     * Folds the values per key into an aggregate starting from {@code initializer}, into a table.
     *
     * @param <A> the aggregate type
     * @param initializer gives the aggregate of a key before its first record
     * @param aggregator adds a record to its key's aggregate; null deletes the key's row
     * @param materialized the store of the aggregates: its name, type, serdes (the value serde is required) and
     *     emission
     * @return the table of the aggregate per key
     */
    <A> Table<K, A> aggregate(
            Supplier<A> initializer, Aggregator<? super K, ? super V, A> aggregator, Materialized<K, A> materialized);

    /**
     * Aggregate per key and per window of {@code windows}.
     *
     * @param windows the windows: tumbling, hopping, sliding, session or global
     * @return the stream grouped by key and window, to aggregate
     */
    WindowedStream<K, V> windowedBy(Windows windows);

    /**
     * Runs a {@link KeyedProcessor} over the stream, one instance per task, with the key-value stores
     * {@code stores} (each named with {@code Materialized.as(name)}, with key and value serdes) and
     * per-key timers, which Weir keeps in a logged store of its own. The result is a stream whose serdes
     * are unknown: give them when writing it ({@code to(topic, Produced.with(...))}).
     *
     * @param <KOut> the output key type
     * @param <VOut> the output value type
     * @param processor makes the processor of each task
     * @param stores the stores the processor uses (key-value, or window stores {@code withRetention}), each named
     *     and with serdes
     * @return the stream of what the processors forward
     * @throws IllegalStateException at build time if a store has no name or serdes, or a name is taken
     */
    <KOut, VOut> EventStream<KOut, VOut> process(
            Supplier<? extends KeyedProcessor<K, V, KOut, VOut>> processor, Materialized<?, ?>... stores);

    /**
     * {@link #process(Supplier, Materialized[])} as the operator {@code named}: its timer store is then
     * {@code <name>-timers} whatever else changes in the topology, so a restarted or upgraded application
     * keeps its timers.
     *
     * @param <KOut> the output key type
     * @param <VOut> the output value type
     * @param processor makes the processor of each task
     * @param named the operator's name, which also names its timer store
     * @param stores the stores the processor uses (key-value, or window stores {@code withRetention}), each named
     *     and with serdes
     * @return the stream of what the processors forward
     */
    <KOut, VOut> EventStream<KOut, VOut> process(
            Supplier<? extends KeyedProcessor<K, V, KOut, VOut>> processor, Named named, Materialized<?, ?>... stores);

    /**
     * Runs an {@link AsyncKeyedProcessor} over the stream, one instance per task: it calls out for each record
     * ({@link AsyncKeyedProcessor#call}) and acts on each answer with the key's stores and timers ({@link
     * AsyncKeyedProcessor#process}), without the task's thread waiting for the calls.
     *
     * <p>Order and time: a key's answers are processed in the order its records arrived, and each watermark
     * advance (event-time timers, {@code watermark()}) reaches the processor after the answers of the
     * records that arrived before it and before those that arrived after it: per key, the processor sees what
     * a synchronous {@link KeyedProcessor} would, so its state and output are the same. Calls of different
     * keys, and of one key up to {@link Async#withCapacityPerKey}, run at once, up to {@link
     * Async#withCapacity}. The watermark below it stays under every record still waiting and under its own.
     * {@link Async#inPartitionOrder()} processes every answer in arrival order.
     *
     * <p>Exactly-once: the records whose answers are not processed at a commit are kept in its store ({@code
     * <name>}), with the advances queued behind them, in the same transaction; after a crash or a move, the
     * new owner calls for them again. Calls are made <em>at least once</em>; what {@code process} does with
     * the answers happens exactly once. A call that finally fails (retries and timeout as {@code async}
     * says) goes to {@link AsyncKeyedProcessor#onFailure}, by default the processing-error handler.
     *
     * @param <R> what a call answers
     * @param <KOut> the output key type
     * @param <VOut> the output value type
     * @param processor makes the processor of each task
     * @param async the capacity, timeout, retries, order, name (of the operator, its store of held records
     *     and its timer store {@code <name>-timers}) and the serdes of held records
     * @param stores the stores the processor uses, as for {@link #process(Supplier, Materialized[])}
     * @return the stream of what the processors forward; its serdes are unknown
     * @throws IllegalStateException at build time if a store has no name or serdes, a name is taken, or the
     *     stream's serdes are unknown and {@code async} gives none
     */
    <R, KOut, VOut> EventStream<KOut, VOut> processAsync(
            Supplier<? extends AsyncKeyedProcessor<K, V, R, KOut, VOut>> processor,
            Async<K, V> async,
            Materialized<?, ?>... stores);
}
