package io.weir.streams.dsl;

import org.apache.kafka.common.serialization.Serde;

/**
 * How records are written to a topic. Serdes left unset are taken from the stream when it knows them
 * (its source's serdes, or a windowed result's); a stream whose serdes are unknown at a sink fails
 * at build time naming the topic. Immutable.
 */
public final class Produced<K, V> {

    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;

    private Produced(Serde<K> keySerde, Serde<V> valueSerde) {
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
    }

    public static <K, V> Produced<K, V> with(Serde<K> keySerde, Serde<V> valueSerde) {
        return new Produced<>(keySerde, valueSerde);
    }

    /** Serdes from the stream. */
    public static <K, V> Produced<K, V> inferred() {
        return new Produced<>(null, null);
    }

    public Serde<K> keySerde() {
        return keySerde;
    }

    public Serde<V> valueSerde() {
        return valueSerde;
    }
}
