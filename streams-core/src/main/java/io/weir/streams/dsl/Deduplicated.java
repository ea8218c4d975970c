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

    /**
     * Ids written with {@code idSerde}, in a RocksDB store with a generated name, no late topic, no allowed
     * lateness.
     *
     * @param <I> the id type
     * @param idSerde serializes the ids into the store's keys
     * @return deduplication settings with that serde and the defaults
     */
    public static <I> Deduplicated<I> with(Serde<I> idSerde) {
        return new Deduplicated<>(
                Objects.requireNonNull(idSerde, "idSerde"), null, StoreType.ROCKSDB, null, Duration.ZERO);
    }

    /**
     * Names the operator and its store {@code name} (its changelog is {@code <application.id>-<name>-changelog}),
     * so that it keeps its ids whatever else changes in the topology.
     *
     * @param name the operator's and the store's name: unique in the topology, not blank
     * @return a copy with that name
     */
    public Deduplicated<I> withName(String name) {
        return new Deduplicated<>(idSerde, Require.name("name", name), storeType, lateTopic, allowedLateness);
    }

    /**
     * Keeps the ids in memory (restored from the changelog on start) instead of RocksDB.
     *
     * @return a copy with an in-memory store
     */
    public Deduplicated<I> inMemory() {
        return new Deduplicated<>(idSerde, name, StoreType.IN_MEMORY, lateTopic, allowedLateness);
    }

    /**
     * Writes late records (see {@link EventStream#deduplicate}) to {@code topic} instead of only counting them.
     *
     * @param topic the late-data topic; it must exist (Weir does not create it)
     * @return a copy that writes late records there
     */
    public Deduplicated<I> withLateRecordsTo(String topic) {
        return new Deduplicated<>(idSerde, name, storeType, Require.name("late-records topic", topic), allowedLateness);
    }

    /**
     * How far behind the watermark a record may be and still be judged: ids are kept that much longer.
     * Zero by default: a record whose event time the watermark has reached is late.
     *
     * @param lateness how far behind the watermark a record may be and still be judged; zero or more
     * @return a copy with that allowed lateness
     */
    public Deduplicated<I> withAllowedLateness(Duration lateness) {
        return new Deduplicated<>(
                idSerde, name, storeType, lateTopic, Require.nonNegative("allowedLateness", lateness));
    }

    /**
     * The serde of the ids.
     *
     * @return the serde given to {@link #with}
     */
    public Serde<I> idSerde() {
        return idSerde;
    }

    /**
     * The operator's and the store's name.
     *
     * @return the name, or empty for a generated one
     */
    public Optional<String> name() {
        return Optional.ofNullable(name);
    }

    /**
     * Where the store of ids lives.
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

    /**
     * How far behind the watermark a record may be and still be judged.
     *
     * @return the allowed lateness; zero unless set
     */
    public Duration allowedLateness() {
        return allowedLateness;
    }
}
