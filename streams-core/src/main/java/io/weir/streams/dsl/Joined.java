package io.weir.streams.dsl;

import io.weir.streams.internals.Require;
import io.weir.streams.state.StoreType;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.util.Objects;
import java.util.Optional;

/**
 * How a stream is joined with a table ({@link EventStream#join(Table, java.util.function.BiFunction,
 * Joined)}): which version of the table's row a record meets, and what the join needs besides. Immutable.
 *
 * <ul>
 *   <li>{@link #latest()}: the row the table holds when the record is processed, as Kafka Streams joins.
 *       No added latency; the result depends on how the two topics' records interleave, so a replay after
 *       the table moved on may join differently.</li>
 *   <li>{@link #asOf()}: the version of a versioned table ({@code Materialized.versioned}) valid at the
 *       record's event time, when the record is processed. An update of the table that is older than the
 *       record but arrives after it is not seen.</li>
 *   <li>{@link #aligned()}: the record waits, in a changelogged buffer, until the table's watermark
 *       reaches its event time, then joins as of it. The output depends only on the data: the same for
 *       any interleaving of the two topics, any restart or rebalance, as long as the table's updates
 *       arrive within its watermark's delay. While the table's partition is idle (its {@code Consumed}
 *       watermark strategy's idleness) records are joined at once, as of their event time, with what
 *       the table holds. A table without idleness that gets no updates holds the stream back.</li>
 * </ul>
 *
 * <p>As of and aligned, a record older than the table's history (its event time plus the history
 * retention at or before the table's watermark, so the version it needs may be gone) is not joined: it
 * goes to the late-data side output ({@link #withLateRecordsTo}) with reason {@code
 * BEFORE_TABLE_HISTORY}, counted in {@code late-records-dropped}.
 *
 * @param <K> the stream's key type
 * @param <V> the stream's value type
 */
public final class Joined<K, V> {

    /** Which version of the table's row a record meets. */
    public enum Mode {
        /** The row the table holds when the record is processed; see {@link #latest()}. */
        LATEST,
        /** The version of a versioned table valid at the record's event time; see {@link #asOf()}. */
        AS_OF,
        /**
         * The version valid at the record's event time, once the table's watermark reached it; see {@link
         * #aligned()}.
         */
        ALIGNED
    }

    private final Mode mode;
    private final @Nullable String name;
    private final @Nullable Serde<K> keySerde;
    private final @Nullable Serde<V> valueSerde;
    private final @Nullable String lateTopic;
    private final StoreType storeType;

    private Joined(
            Mode mode,
            @Nullable String name,
            @Nullable Serde<K> keySerde,
            @Nullable Serde<V> valueSerde,
            @Nullable String lateTopic,
            StoreType storeType) {
        this.mode = mode;
        this.name = name;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.lateTopic = lateTopic;
        this.storeType = storeType;
    }

    /**
     * The row the table holds when the record is processed (the default).
     *
     * @param <K> the stream's key type
     * @param <V> the stream's value type
     * @return a latest join with the streams' serdes and a generated name
     */
    public static <K, V> Joined<K, V> latest() {
        return new Joined<>(Mode.LATEST, null, null, null, null, StoreType.ROCKSDB);
    }

    /**
     * The version of a versioned table valid at the record's event time, when the record is processed.
     *
     * @param <K> the stream's key type
     * @param <V> the stream's value type
     * @return an as-of join with the streams' serdes and a generated name
     */
    public static <K, V> Joined<K, V> asOf() {
        return new Joined<>(Mode.AS_OF, null, null, null, null, StoreType.ROCKSDB);
    }

    /**
     * The version valid at the record's event time, once the table's watermark has reached it.
     *
     * @param <K> the stream's key type
     * @param <V> the stream's value type
     * @return an aligned join with the streams' serdes, a generated name and a RocksDB buffer
     */
    public static <K, V> Joined<K, V> aligned() {
        return new Joined<>(Mode.ALIGNED, null, null, null, null, StoreType.ROCKSDB);
    }

    /**
     * Names the join operator {@code name}: also its buffer's store ({@code <name>-buffer}, aligned) and
     * its repartition topic ({@code <name>-repartition}, after a key change).
     *
     * @param name the operator's name: unique in the topology, not blank
     * @return a copy with that name
     */
    public Joined<K, V> withName(String name) {
        return new Joined<>(mode, Require.name("name", name), keySerde, valueSerde, lateTopic, storeType);
    }

    /**
     * The stream's key serde, where the stream's is unknown: a repartition and the aligned buffer need it.
     *
     * @param keySerde serializes the stream's keys
     * @return a copy with that key serde
     */
    public Joined<K, V> withKeySerde(Serde<K> keySerde) {
        return new Joined<>(mode, name, Objects.requireNonNull(keySerde, "keySerde"), valueSerde, lateTopic, storeType);
    }

    /**
     * The stream's value serde, where the stream's is unknown: a repartition and the aligned buffer need it.
     *
     * @param valueSerde serializes the stream's values
     * @return a copy with that value serde
     */
    public Joined<K, V> withValueSerde(Serde<V> valueSerde) {
        return new Joined<>(
                mode, name, keySerde, Objects.requireNonNull(valueSerde, "valueSerde"), lateTopic, storeType);
    }

    /**
     * Writes records older than the table's history to {@code topic} instead of only counting them (as-of
     * and aligned; refused for {@link #latest()}, which refuses no record).
     *
     * @param topic the late-data topic; it must exist (Weir does not create it)
     * @return a copy that writes late records there
     */
    public Joined<K, V> withLateRecordsTo(String topic) {
        return new Joined<>(mode, name, keySerde, valueSerde, Require.name("late-records topic", topic), storeType);
    }

    /**
     * Keeps the aligned join's buffer in memory (restored from its changelog on start) instead of RocksDB;
     * refused for the other modes, which hold no records.
     *
     * @return a copy with an in-memory buffer
     */
    public Joined<K, V> inMemory() {
        return new Joined<>(mode, name, keySerde, valueSerde, lateTopic, StoreType.IN_MEMORY);
    }

    /**
     * Which version of the table's row a record meets.
     *
     * @return the mode the factory chose
     */
    public Mode mode() {
        return mode;
    }

    /**
     * The operator's name.
     *
     * @return the name, or empty for a generated one
     */
    public Optional<String> name() {
        return Optional.ofNullable(name);
    }

    /**
     * The stream's key serde, if given.
     *
     * @return the key serde, or empty to take the stream's
     */
    public Optional<Serde<K>> keySerde() {
        return Optional.ofNullable(keySerde);
    }

    /**
     * The stream's value serde, if given.
     *
     * @return the value serde, or empty to take the stream's
     */
    public Optional<Serde<V>> valueSerde() {
        return Optional.ofNullable(valueSerde);
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
     * Where the aligned join's buffer lives.
     *
     * @return {@link StoreType#IN_MEMORY} after {@link #inMemory()}, else {@link StoreType#ROCKSDB}
     */
    public StoreType storeType() {
        return storeType;
    }
}
