package io.weir.streams.dsl;

import io.weir.streams.internals.Require;
import io.weir.streams.state.StoreType;
import org.apache.kafka.common.serialization.Serde;

import java.util.Objects;

/**
 * The state store behind an aggregation: its name (also the name of its changelog topic and how
 * tests and queries find it), where it lives, and the serdes of its keys and values. Immutable.
 * Unset serdes are taken from the stream; an aggregation whose key or value serde is then still
 * unknown fails at build time naming the store.
 */
public final class Materialized<K, V> {

    private final String storeName;
    private final StoreType storeType;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;

    private Materialized(String storeName, StoreType storeType, Serde<K> keySerde, Serde<V> valueSerde) {
        this.storeName = storeName;
        this.storeType = storeType;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
    }

    /** A RocksDB store named {@code storeName}. */
    public static <K, V> Materialized<K, V> as(String storeName) {
        return new Materialized<>(Require.name("storeName", storeName), StoreType.ROCKSDB, null, null);
    }

    /** A store with a generated name and these serdes. */
    public static <K, V> Materialized<K, V> with(Serde<K> keySerde, Serde<V> valueSerde) {
        return new Materialized<>(null, StoreType.ROCKSDB, keySerde, valueSerde);
    }

    public Materialized<K, V> withStoreType(StoreType type) {
        return new Materialized<>(storeName, Objects.requireNonNull(type, "storeType"), keySerde, valueSerde);
    }

    /** Shorthand for {@code withStoreType(StoreType.IN_MEMORY)}. */
    public Materialized<K, V> inMemory() {
        return withStoreType(StoreType.IN_MEMORY);
    }

    public Materialized<K, V> withKeySerde(Serde<K> serde) {
        return new Materialized<>(storeName, storeType, serde, valueSerde);
    }

    public Materialized<K, V> withValueSerde(Serde<V> serde) {
        return new Materialized<>(storeName, storeType, keySerde, serde);
    }

    /** The store's name, or null when it is to be generated. */
    public String storeName() {
        return storeName;
    }

    public StoreType storeType() {
        return storeType;
    }

    public Serde<K> keySerde() {
        return keySerde;
    }

    public Serde<V> valueSerde() {
        return valueSerde;
    }
}
