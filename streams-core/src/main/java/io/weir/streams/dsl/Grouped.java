package io.weir.streams.dsl;

import io.weir.streams.internals.Require;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.util.Optional;

/**
 * How a stream is grouped: the serdes of the repartition topic Weir creates when the key was changed
 * before the grouping (map, flatMap, selectKey), and that topic's name. Immutable.
 *
 * <p>The repartition topic is {@code <application.id>-<name>-repartition}, with as many partitions as
 * the input of the operators before it. Event time travels with it: each upstream task writes its
 * watermark to every partition of the topic, and a downstream task's watermark for a partition is the
 * minimum of its upstream tasks' last watermarks (idle upstream tasks left out).
 */
public final class Grouped<K, V> {

    private final @Nullable Serde<K> keySerde;
    private final @Nullable Serde<V> valueSerde;
    private final @Nullable String name;

    private Grouped(@Nullable Serde<K> keySerde, @Nullable Serde<V> valueSerde, @Nullable String name) {
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.name = name;
    }

    /** These serdes for the repartition topic (null: taken from the stream). */
    public static <K, V> Grouped<K, V> with(@Nullable Serde<K> keySerde, @Nullable Serde<V> valueSerde) {
        return new Grouped<>(keySerde, valueSerde, null);
    }

    /** Names the repartition topic {@code <application.id>-<name>-repartition}. */
    public Grouped<K, V> withName(String name) {
        return new Grouped<>(keySerde, valueSerde, Require.name("name", name));
    }

    /** The key serde; empty when it is taken from the stream. */
    public Optional<Serde<K>> keySerde() {
        return Optional.ofNullable(keySerde);
    }

    /** The value serde; empty when it is taken from the stream. */
    public Optional<Serde<V>> valueSerde() {
        return Optional.ofNullable(valueSerde);
    }

    /** The repartition topic's base name; empty for a generated one. */
    public Optional<String> name() {
        return Optional.ofNullable(name);
    }
}
