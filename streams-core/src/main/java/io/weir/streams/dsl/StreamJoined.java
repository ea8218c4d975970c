package io.weir.streams.dsl;

import io.weir.streams.internals.Require;
import io.weir.streams.state.StoreType;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.util.Optional;

/**
 * How a stream–stream join keeps its two buffers: the serdes of the key and of each side's values (where
 * the streams' are unknown), the operator's name (also its stores' and repartition topics'), where the
 * stores live, and the topic late records go to. Immutable.
 *
 * @param <K>  the key type
 * @param <V>  the left stream's value type
 * @param <VO> the right stream's value type
 */
public final class StreamJoined<K, V, VO> {

    private final @Nullable Serde<K> keySerde;
    private final @Nullable Serde<V> valueSerde;
    private final @Nullable Serde<VO> otherValueSerde;
    private final @Nullable String name;
    private final StoreType storeType;
    private final @Nullable String lateTopic;

    private StreamJoined(
            @Nullable Serde<K> keySerde,
            @Nullable Serde<V> valueSerde,
            @Nullable Serde<VO> otherValueSerde,
            @Nullable String name,
            StoreType storeType,
            @Nullable String lateTopic) {
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.otherValueSerde = otherValueSerde;
        this.name = name;
        this.storeType = storeType;
        this.lateTopic = lateTopic;
    }

    /**
     * The streams' own serdes, a generated name, RocksDB, no late topic.
     *
     * @param <K> the key type
     * @param <V> the left stream's value type
     * @param <VO> the right stream's value type
     * @return the default join settings
     */
    public static <K, V, VO> StreamJoined<K, V, VO> defaults() {
        return new StreamJoined<>(null, null, null, null, StoreType.ROCKSDB, null);
    }

    /**
     * These serdes (a null one: the stream's own) for the key, the left values and the right values.
     *
     * @param <K> the key type
     * @param <V> the left stream's value type
     * @param <VO> the right stream's value type
     * @param keySerde serializes the keys; null to take the streams'
     * @param valueSerde serializes the left values; null to take the left stream's
     * @param otherValueSerde serializes the right values; null to take the right stream's
     * @return join settings with these serdes, a generated name, RocksDB and no late topic
     */
    public static <K, V, VO> StreamJoined<K, V, VO> with(
            @Nullable Serde<K> keySerde, @Nullable Serde<V> valueSerde, @Nullable Serde<VO> otherValueSerde) {
        return new StreamJoined<>(keySerde, valueSerde, otherValueSerde, null, StoreType.ROCKSDB, null);
    }

    /**
     * Names the join {@code name}: its buffers are {@code <name>-left} and {@code <name>-right} (an outer
     * side's with an index of its unmatched records, {@code -unmatched}), its repartition topics {@code <name>-left-repartition} and {@code
     * <name>-right-repartition}, so they keep their state whatever else changes in the topology.
     *
     * @param name the join's name: unique in the topology, not blank
     * @return a copy with that name
     */
    public StreamJoined<K, V, VO> withName(String name) {
        return new StreamJoined<>(
                keySerde, valueSerde, otherValueSerde, Require.name("name", name), storeType, lateTopic);
    }

    /**
     * Keeps the buffers in memory (restored from their changelogs on start) instead of RocksDB.
     *
     * @return a copy with in-memory buffers
     */
    public StreamJoined<K, V, VO> inMemory() {
        return new StreamJoined<>(keySerde, valueSerde, otherValueSerde, name, StoreType.IN_MEMORY, lateTopic);
    }

    /**
     * Writes late records of either side to {@code topic} instead of only counting them.
     *
     * @param topic the late-data topic; it must exist (Weir does not create it)
     * @return a copy that writes late records there
     */
    public StreamJoined<K, V, VO> withLateRecordsTo(String topic) {
        return new StreamJoined<>(
                keySerde, valueSerde, otherValueSerde, name, storeType, Require.name("late-records topic", topic));
    }

    /**
     * The key serde, if given.
     *
     * @return the key serde, or empty to take the streams'
     */
    public Optional<Serde<K>> keySerde() {
        return Optional.ofNullable(keySerde);
    }

    /**
     * The left stream's value serde, if given.
     *
     * @return the serde, or empty to take the left stream's
     */
    public Optional<Serde<V>> valueSerde() {
        return Optional.ofNullable(valueSerde);
    }

    /**
     * The right stream's value serde, if given.
     *
     * @return the serde, or empty to take the right stream's
     */
    public Optional<Serde<VO>> otherValueSerde() {
        return Optional.ofNullable(otherValueSerde);
    }

    /**
     * The join's name.
     *
     * @return the name, or empty for a generated one
     */
    public Optional<String> name() {
        return Optional.ofNullable(name);
    }

    /**
     * Where the buffers live.
     *
     * @return {@link StoreType#IN_MEMORY} after {@link #inMemory()}, else {@link StoreType#ROCKSDB}
     */
    public StoreType storeType() {
        return storeType;
    }

    /**
     * The topic late records are written to.
     *
     * @return the topic, or empty when late records are only counted
     */
    public Optional<String> lateTopic() {
        return Optional.ofNullable(lateTopic);
    }
}
