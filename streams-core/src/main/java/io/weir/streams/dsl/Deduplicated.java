package io.weir.streams.dsl;

import io.weir.streams.internals.Require;
import io.weir.streams.state.StoreType;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How {@link EventStream#deduplicate(java.util.function.BiFunction, Duration, Deduplicated)} keeps
 * the ids it has seen: their serde, the name of its store (also its changelog's), where the store
 * lives, the topic late records go to, and the allowed lateness. Immutable.
 */
public final class Deduplicated<I> {

    private final Serde<I> idSerde;
    private final @Nullable String name;
    private final StoreType storeType;
    private final @Nullable String lateTopic;
    private final Duration allowedLateness;

    private Deduplicated(
            Serde<I> idSerde,
            @Nullable String name,
            StoreType storeType,
            @Nullable String lateTopic,
            Duration allowedLateness) {
        this.idSerde = idSerde;
        this.name = name;
        this.storeType = storeType;
        this.lateTopic = lateTopic;
        this.allowedLateness = allowedLateness;
    }

    /** Ids written with {@code idSerde}, in a RocksDB store with a generated name, no late topic, no allowed lateness. */
    public static <I> Deduplicated<I> with(Serde<I> idSerde) {
        return new Deduplicated<>(
                Objects.requireNonNull(idSerde, "idSerde"), null, StoreType.ROCKSDB, null, Duration.ZERO);
    }

    /**
     * Names the operator and its store {@code name} (its changelog is {@code <application.id>-<name>-changelog}),
     * so that it keeps its ids whatever else changes in the topology.
     */
    public Deduplicated<I> withName(String name) {
        return new Deduplicated<>(idSerde, Require.name("name", name), storeType, lateTopic, allowedLateness);
    }

    /** Keeps the ids in memory (restored from the changelog on start) instead of RocksDB. */
    public Deduplicated<I> inMemory() {
        return new Deduplicated<>(idSerde, name, StoreType.IN_MEMORY, lateTopic, allowedLateness);
    }

    /** Writes late records (see {@link EventStream#deduplicate}) to {@code topic} instead of only counting them. */
    public Deduplicated<I> withLateRecordsTo(String topic) {
        return new Deduplicated<>(idSerde, name, storeType, Require.name("late-records topic", topic), allowedLateness);
    }

    /**
     * How far behind the watermark a record may be and still be judged: ids are kept that much longer.
     * Zero by default: a record whose event time the watermark has reached is late.
     */
    public Deduplicated<I> withAllowedLateness(Duration lateness) {
        return new Deduplicated<>(
                idSerde, name, storeType, lateTopic, Require.nonNegative("allowedLateness", lateness));
    }

    public Serde<I> idSerde() {
        return idSerde;
    }

    public Optional<String> name() {
        return Optional.ofNullable(name);
    }

    public StoreType storeType() {
        return storeType;
    }

    public Optional<String> lateTopic() {
        return Optional.ofNullable(lateTopic);
    }

    public Duration allowedLateness() {
        return allowedLateness;
    }
}
