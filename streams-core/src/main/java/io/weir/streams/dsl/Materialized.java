package io.weir.streams.dsl;

import io.weir.streams.internals.Require;
import io.weir.streams.state.StoreType;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The state store behind an aggregation: its name (also the name of its changelog topic and how
 * tests and queries find it), where it lives, the serdes of its keys and values, and whether it has
 * a changelog. Immutable. Unset serdes are taken from the stream; an aggregation whose key or value
 * serde is then still unknown fails at build time naming the store.
 */
public final class Materialized<K, V> {

    private final @Nullable String storeName;
    private final StoreType storeType;
    private final @Nullable Serde<K> keySerde;
    private final @Nullable Serde<V> valueSerde;
    private final boolean logged;
    private final @Nullable Duration retention;
    private final boolean emitEveryChange;

    private Materialized(
            @Nullable String storeName,
            StoreType storeType,
            @Nullable Serde<K> keySerde,
            @Nullable Serde<V> valueSerde,
            boolean logged,
            @Nullable Duration retention,
            boolean emitEveryChange) {
        this.storeName = storeName;
        this.storeType = storeType;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.logged = logged;
        this.retention = retention;
        this.emitEveryChange = emitEveryChange;
    }

    /** A RocksDB store named {@code storeName}. */
    public static <K, V> Materialized<K, V> as(String storeName) {
        return new Materialized<>(
                Require.name("storeName", storeName), StoreType.ROCKSDB, null, null, true, null, false);
    }

    /** A store with a generated name and these serdes (null: taken from the stream). */
    public static <K, V> Materialized<K, V> with(@Nullable Serde<K> keySerde, @Nullable Serde<V> valueSerde) {
        return new Materialized<>(null, StoreType.ROCKSDB, keySerde, valueSerde, true, null, false);
    }

    public Materialized<K, V> withStoreType(StoreType type) {
        return new Materialized<>(
                storeName,
                Objects.requireNonNull(type, "storeType"),
                keySerde,
                valueSerde,
                logged,
                retention,
                emitEveryChange);
    }

    /** Shorthand for {@code withStoreType(StoreType.IN_MEMORY)}. */
    public Materialized<K, V> inMemory() {
        return withStoreType(StoreType.IN_MEMORY);
    }

    public Materialized<K, V> withKeySerde(Serde<K> serde) {
        return new Materialized<>(storeName, storeType, serde, valueSerde, logged, retention, emitEveryChange);
    }

    public Materialized<K, V> withValueSerde(Serde<V> serde) {
        return new Materialized<>(storeName, storeType, keySerde, serde, logged, retention, emitEveryChange);
    }

    /**
     * A store without a changelog: no topic is written or created for it, commits are cheaper, and
     * nothing restores it. Its task keeps what the local store holds when it starts again on the same
     * instance (a RocksDB store on disk; an in-memory store holds nothing), and starts empty on any
     * other instance. Under exactly-once, a crash between a transaction's commit and the store's
     * write loses that commit's changes to the store, which a changelog would have replayed. For
     * state that may be lost or rebuilt, such as a cache.
     */
    public Materialized<K, V> withLoggingDisabled() {
        return new Materialized<>(storeName, storeType, keySerde, valueSerde, false, retention, emitEveryChange);
    }

    /**
     * Makes a keyed processor's store a {@link io.weir.streams.state.WindowStore}: values by key and
     * time, each kept until the watermark reaches its time plus {@code retention}, then purged (read it
     * with {@code KeyedProcessorContext.windowStore}). Only for keyed processors: a windowed aggregation
     * keeps its windows for their allowed lateness, and refuses this at build time.
     */
    public Materialized<K, V> withRetention(Duration retention) {
        return new Materialized<>(
                storeName,
                storeType,
                keySerde,
                valueSerde,
                logged,
                Require.positive("retention", retention),
                emitEveryChange);
    }

    /**
     * Makes a table (an aggregation without windows) emit each change of a row as it happens, instead
     * of the last value per key at each commit. What Kafka Streams users get from {@code
     * withCachingDisabled()}; here the store keeps its write-back cache, and only emission changes.
     * Windowed aggregations emit panes as their trigger says, and refuse this at build time.
     */
    public Materialized<K, V> withEmitEveryChange() {
        return new Materialized<>(storeName, storeType, keySerde, valueSerde, logged, retention, true);
    }

    /** Whether a table emits each change ({@link #withEmitEveryChange()}) rather than the last per key at each commit. */
    public boolean emitsEveryChange() {
        return emitEveryChange;
    }

    /** A window store's retention; empty for a key-value store. */
    public Optional<Duration> retention() {
        return Optional.ofNullable(retention);
    }

    /** The store's name; empty when it is to be generated. */
    public Optional<String> storeName() {
        return Optional.ofNullable(storeName);
    }

    public StoreType storeType() {
        return storeType;
    }

    /** Whether the store has a changelog (the default); see {@link #withLoggingDisabled()}. */
    public boolean loggingEnabled() {
        return logged;
    }

    /** The key serde; empty when it is taken from the stream. */
    public Optional<Serde<K>> keySerde() {
        return Optional.ofNullable(keySerde);
    }

    /** The value serde; empty when it is taken from the stream (or, for a count, is Long's). */
    public Optional<Serde<V>> valueSerde() {
        return Optional.ofNullable(valueSerde);
    }
}
