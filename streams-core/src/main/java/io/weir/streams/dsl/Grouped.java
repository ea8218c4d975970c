package io.weir.streams.dsl;

import io.weir.streams.internals.Require;
import org.apache.kafka.common.serialization.Serde;

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

    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;
    private final String name;

    private Grouped(Serde<K> keySerde, Serde<V> valueSerde, String name) {
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.name = name;
    }

    public static <K, V> Grouped<K, V> with(Serde<K> keySerde, Serde<V> valueSerde) {
        return new Grouped<>(keySerde, valueSerde, null);
    }

    /** Names the repartition topic {@code <application.id>-<name>-repartition}. */
    public Grouped<K, V> withName(String name) {
        return new Grouped<>(keySerde, valueSerde, Require.name("name", name));
    }

    public Serde<K> keySerde() {
        return keySerde;
    }

    public Serde<V> valueSerde() {
        return valueSerde;
    }

    /** The repartition topic's base name, or null for a generated one. */
    public String name() {
        return name;
    }
}
