package io.weir.streams.dsl;

import io.weir.streams.internals.Require;
import io.weir.streams.state.StoreType;
import io.weir.streams.time.TimeDomain;
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

    // Immutable to its users: every withXxx returns a changed copy, and nothing else writes the fields.
    private @Nullable String storeName;
    private StoreType storeType = StoreType.ROCKSDB;
    private @Nullable Serde<K> keySerde;
    private @Nullable Serde<V> valueSerde;
    private boolean logged = true;
    private @Nullable Duration retention;
    private boolean emitEveryChange;
    private @Nullable Duration timeToLive;
    private TimeDomain timeToLiveDomain = TimeDomain.EVENT_TIME;
    private @Nullable Duration historyRetention;

    private Materialized() {}

    private Materialized<K, V> copy() {
        Materialized<K, V> c = new Materialized<>();
        c.storeName = storeName;
        c.storeType = storeType;
        c.keySerde = keySerde;
        c.valueSerde = valueSerde;
        c.logged = logged;
        c.retention = retention;
        c.emitEveryChange = emitEveryChange;
        c.timeToLive = timeToLive;
        c.timeToLiveDomain = timeToLiveDomain;
        c.historyRetention = historyRetention;
        return c;
    }

    /**
     * A RocksDB store named {@code storeName}.
     *
     * @param <K> the store's key type
     * @param <V> the store's value type
     * @param storeName the store's name, unique in the topology and not blank; a store with a changelog of its
     *     own names it {@code <application.id>-<storeName>-changelog}
     * @return a store description with that name and the default settings
     */
    public static <K, V> Materialized<K, V> as(String storeName) {
        Materialized<K, V> m = new Materialized<>();
        m.storeName = Require.name("storeName", storeName);
        return m;
    }

    /**
     * A store with a generated name and these serdes (null: taken from the stream).
     *
     * @param <K> the store's key type
     * @param <V> the store's value type
     * @param keySerde the key serde; null to take the stream's
     * @param valueSerde the value serde; null to take the stream's
     * @return a store description with those serdes and the default settings
     */
    public static <K, V> Materialized<K, V> with(@Nullable Serde<K> keySerde, @Nullable Serde<V> valueSerde) {
        Materialized<K, V> m = new Materialized<>();
        m.keySerde = keySerde;
        m.valueSerde = valueSerde;
        return m;
    }

    /**
     * Where the store keeps its data: {@link StoreType#ROCKSDB} (the default) or {@link StoreType#IN_MEMORY}.
     *
     * @param type the store type
     * @return a copy with that store type
     */
    public Materialized<K, V> withStoreType(StoreType type) {
        Materialized<K, V> c = copy();
        c.storeType = Objects.requireNonNull(type, "storeType");
        return c;
    }

    /**
     * Shorthand for {@code withStoreType(StoreType.IN_MEMORY)}.
     *
     * @return a copy with an in-memory store
     */
    public Materialized<K, V> inMemory() {
        return withStoreType(StoreType.IN_MEMORY);
    }

    /**
     * Sets the serde of the store's keys, in place of the stream's.
     *
     * @param serde the key serde
     * @return a copy with that key serde
     */
    public Materialized<K, V> withKeySerde(Serde<K> serde) {
        Materialized<K, V> c = copy();
        c.keySerde = Objects.requireNonNull(serde, "keySerde");
        return c;
    }

    /**
     * Sets the serde of the store's values, in place of the stream's.
     *
     * @param serde the value serde
     * @return a copy with that value serde
     */
    public Materialized<K, V> withValueSerde(Serde<V> serde) {
        Materialized<K, V> c = copy();
        c.valueSerde = Objects.requireNonNull(serde, "valueSerde");
        return c;
    }

    /**
     * A store without a changelog: no topic is written or created for it, commits are cheaper, and
     * nothing restores it. Its task keeps what the local store holds when it starts again on the same
     * instance (a RocksDB store on disk; an in-memory store holds nothing), and starts empty on any
     * other instance. Under exactly-once, a crash between a transaction's commit and the store's
     * write loses that commit's changes to the store, which a changelog would have replayed. For
     * state that may be lost or rebuilt, such as a cache.
     *
     * @return a copy without a changelog
     */
    public Materialized<K, V> withLoggingDisabled() {
        Materialized<K, V> c = copy();
        c.logged = false;
        return c;
    }

    /**
     * Makes a keyed processor's store a {@link io.weir.streams.state.WindowStore}: values by key and
     * time, each kept until the watermark reaches its time plus {@code retention}, then purged (read it
     * with {@code KeyedProcessorContext.windowStore}). Only for keyed processors: a windowed aggregation
     * keeps its windows for their allowed lateness, and refuses this at build time.
     *
     * @param retention how long behind the watermark a value is kept; at least 1 ms
     * @return a copy that describes a window store
     */
    public Materialized<K, V> withRetention(Duration retention) {
        Materialized<K, V> c = copy();
        c.retention = Require.positive("retention", retention);
        return c;
    }

    /**
     * Makes a table (an aggregation without windows) emit each change of a row as it happens, instead
     * of the last value per key at each commit. What Kafka Streams users get from {@code
     * withCachingDisabled()}; here the store keeps its write-back cache, and only emission changes.
     * Windowed aggregations emit panes as their trigger says, and refuse this at build time.
     *
     * @return a copy that emits every change
     */
    public Materialized<K, V> withEmitEveryChange() {
        Materialized<K, V> c = copy();
        c.emitEveryChange = true;
        return c;
    }

    /**
     * Whether a table emits each change ({@link #withEmitEveryChange()}) rather than the last per key at each
     * commit.
     *
     * @return true if every change is emitted, false for the last per key at each commit (the default)
     */
    public boolean emitsEveryChange() {
        return emitEveryChange;
    }

    /**
     * Gives a table (a topic's, or an aggregation's without windows) a time-to-live in event time: a
     * row whose event time the watermark passed by {@code ttl} is deleted, with a tombstone in the
     * changelog and a delete downstream, counted ({@code rows-expired}). Deterministic: a replay
     * expires the same rows. A topic's table with a time-to-live has a changelog of its own, since it
     * no longer holds what the topic holds.
     *
     * @param ttl how far behind the watermark a row's event time may fall before it is deleted; at least 1 ms
     * @return a copy with that time-to-live
     */
    public Materialized<K, V> withTimeToLive(Duration ttl) {
        return withTimeToLive(ttl, TimeDomain.EVENT_TIME);
    }

    /**
     * {@link #withTimeToLive(Duration)} in {@code domain}: in {@link TimeDomain#PROCESSING_TIME}, a row
     * not changed for {@code ttl} of wall-clock time is deleted, whatever the event times (a replay may
     * expire other rows). Windowed aggregations and keyed processors refuse it at build time.
     *
     * @param ttl how long a row lives in {@code domain} without a change; at least 1 ms
     * @param domain event time (by the watermark) or processing time (by the wall clock)
     * @return a copy with that time-to-live
     */
    public Materialized<K, V> withTimeToLive(Duration ttl, TimeDomain domain) {
        Materialized<K, V> c = copy();
        c.timeToLive = Require.positive("ttl", ttl);
        c.timeToLiveDomain = Objects.requireNonNull(domain, "domain");
        return c;
    }

    /**
     * The time-to-live of a table's rows; empty when they live until deleted.
     *
     * @return the time-to-live, if one is set
     */
    public Optional<Duration> timeToLive() {
        return Optional.ofNullable(timeToLive);
    }

    /**
     * The time domain of {@link #timeToLive()}.
     *
     * @return the domain; {@link TimeDomain#EVENT_TIME} unless set otherwise
     */
    public TimeDomain timeToLiveDomain() {
        return timeToLiveDomain;
    }

    /**
     * Makes a topic's table ({@code StreamsBuilder.table}) versioned: it keeps each key's values by
     * event time, for {@code historyRetention} behind the watermark. Its current value is the one with
     * the latest event time, not the last by offset: an update older than the current version goes into
     * the history and changes nothing downstream. The value at any time within the retention can be read
     * ({@link io.weir.streams.state.VersionedKeyValueStore#get(Object, long)}). An update whose event time
     * is already {@code historyRetention} behind the watermark is dropped and counted ({@code
     * late-records-dropped}). A versioned table keeps a changelog of its own (the topic's compaction
     * would lose the history). Only for topic tables: aggregations and other stores refuse it.
     *
     * @param historyRetention how far behind the watermark old versions are kept; zero or more
     * @return a copy that describes a versioned table
     */
    public Materialized<K, V> versioned(Duration historyRetention) {
        Materialized<K, V> c = copy();
        c.historyRetention = Require.nonNegative("historyRetention", historyRetention);
        return c;
    }

    /**
     * The history retention of a versioned table; empty for a table that keeps only current values.
     *
     * @return the history retention, if the table is versioned
     */
    public Optional<Duration> historyRetention() {
        return Optional.ofNullable(historyRetention);
    }

    /**
     * A window store's retention; empty for a key-value store.
     *
     * @return the retention, if set with {@link #withRetention}
     */
    public Optional<Duration> retention() {
        return Optional.ofNullable(retention);
    }

    /**
     * The store's name; empty when it is to be generated.
     *
     * @return the name, if set with {@link #as}
     */
    public Optional<String> storeName() {
        return Optional.ofNullable(storeName);
    }

    /**
     * Where the store keeps its data.
     *
     * @return the store type; {@link StoreType#ROCKSDB} unless set otherwise
     */
    public StoreType storeType() {
        return storeType;
    }

    /**
     * Whether the store has a changelog (the default); see {@link #withLoggingDisabled()}.
     *
     * @return true unless {@link #withLoggingDisabled()} was called
     */
    public boolean loggingEnabled() {
        return logged;
    }

    /**
     * The key serde; empty when it is taken from the stream.
     *
     * @return the key serde, if set
     */
    public Optional<Serde<K>> keySerde() {
        return Optional.ofNullable(keySerde);
    }

    /**
     * The value serde; empty when it is taken from the stream (or, for a count, is Long's).
     *
     * @return the value serde, if set
     */
    public Optional<Serde<V>> valueSerde() {
        return Optional.ofNullable(valueSerde);
    }
}
