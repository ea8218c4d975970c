package io.weir.streams.dsl;

import io.weir.streams.KeyValue;

import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * An unbounded stream of keyed records, each with an event time. Stateless operators keep a
 * record's event time and headers; windowed aggregations (via {@link #groupByKey()}) turn it into a
 * stream of window results. Operators return new streams; a stream may feed several operators.
 */
public interface EventStream<K, V> {

    /** Keeps the records for which {@code predicate} holds. */
    EventStream<K, V> filter(BiPredicate<? super K, ? super V> predicate);

    /** Drops the records for which {@code predicate} holds. */
    EventStream<K, V> filterNot(BiPredicate<? super K, ? super V> predicate);

    /** Replaces key and value. Changes the key: a later grouping repartitions. */
    <K2, V2> EventStream<K2, V2> map(BiFunction<? super K, ? super V, KeyValue<K2, V2>> mapper);

    /** Replaces the value, keeping the key. */
    <V2> EventStream<K, V2> mapValues(Function<? super V, ? extends V2> mapper);

    /** Replaces each record with zero or more records. Changes the key. */
    <K2, V2> EventStream<K2, V2> flatMap(BiFunction<? super K, ? super V, ? extends Iterable<KeyValue<K2, V2>>> mapper);

    /** Replaces each value with zero or more values, keeping the key. */
    <V2> EventStream<K, V2> flatMapValues(Function<? super V, ? extends Iterable<? extends V2>> mapper);

    /** Runs {@code action} on each record and passes it on unchanged. */
    EventStream<K, V> peek(BiConsumer<? super K, ? super V> action);

    /** Computes a new key from key and value. */
    <K2> EventStream<K2, V> selectKey(BiFunction<? super K, ? super V, ? extends K2> keyMapper);

    /**
     * Splits the stream by predicates: each record goes to the first branch whose predicate holds.
     * <pre>{@code
     * Map<String, EventStream<String, Payment>> branches = payments.split()
     *         .branch("large", (card, p) -> p.amount() > 1000)
     *         .defaultBranch("normal");
     * }</pre>
     */
    Branches<K, V> split();

    /** The records of this stream and {@code other}, interleaved in arrival order. */
    EventStream<K, V> merge(EventStream<K, V> other);

    /** Writes the records to {@code topic} with the stream's serdes (fails at build time if they are unknown). */
    void to(String topic);

    /** Writes the records to {@code topic}. */
    void to(String topic, Produced<K, V> produced);

    /**
     * Groups by the current key, for a windowed aggregation. After an operator that changed the key,
     * records are first repartitioned by the new key through an internal topic (see {@link Grouped});
     * the stream's serdes must then be known.
     */
    GroupedStream<K, V> groupByKey();

    /** {@link #groupByKey()} with the serdes and name of the repartition topic, if one is needed. */
    GroupedStream<K, V> groupByKey(Grouped<K, V> grouped);
}
