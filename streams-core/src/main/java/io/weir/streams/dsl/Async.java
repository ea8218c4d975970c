package io.weir.streams.dsl;

import io.weir.streams.internals.Require;
import io.weir.streams.state.StoreType;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How {@link EventStream#mapValuesAsync(java.util.function.Function, Async)} calls out: how many records it
 * holds per task ({@link #withCapacity}; default {@value #DEFAULT_CAPACITY}), how many calls of one key may be
 * in flight at once ({@link #withCapacityPerKey}; default: the capacity), each attempt's timeout ({@link
 * #withTimeout}; default 10 s), retries with a doubling backoff ({@link #withRetries}; default none), the order
 * results leave in (per key by default; {@link #inPartitionOrder()}), the name of the operator and of its
 * store, where the store lives, and the serdes it keeps held records with (the stream's by default).
 * Immutable.
 *
 * @param <K> the key type of the records
 * @param <V> the value type of the records
 */
public final class Async<K, V> {

    /** The default capacity: records held per task. */
    public static final int DEFAULT_CAPACITY = 100;

    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    private final int capacity;
    private final int capacityPerKey;
    private final Duration timeout;
    private final int retries;
    private final Duration firstBackoff;
    private final Duration maxBackoff;
    private final boolean partitionOrder;
    private final @Nullable String name;
    private final StoreType storeType;
    private final @Nullable Serde<K> keySerde;
    private final @Nullable Serde<V> valueSerde;

    private Async(
            int capacity,
            int capacityPerKey,
            Duration timeout,
            int retries,
            Duration firstBackoff,
            Duration maxBackoff,
            boolean partitionOrder,
            @Nullable String name,
            StoreType storeType,
            @Nullable Serde<K> keySerde,
            @Nullable Serde<V> valueSerde) {
        this.capacity = capacity;
        this.capacityPerKey = capacityPerKey;
        this.timeout = timeout;
        this.retries = retries;
        this.firstBackoff = firstBackoff;
        this.maxBackoff = maxBackoff;
        this.partitionOrder = partitionOrder;
        this.name = name;
        this.storeType = storeType;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
    }

    /**
     * The defaults: capacity {@value #DEFAULT_CAPACITY}, no limit per key below it, a 10 s timeout, no retry,
     * results in order per key, a generated name, a RocksDB store, the stream's serdes.
     *
     * @param <K> the key type
     * @param <V> the value type
     * @return the default settings
     */
    public static <K, V> Async<K, V> defaults() {
        return new Async<>(
                DEFAULT_CAPACITY,
                DEFAULT_CAPACITY,
                DEFAULT_TIMEOUT,
                0,
                Duration.ZERO,
                Duration.ZERO,
                false,
                null,
                StoreType.ROCKSDB,
                null,
                null);
    }

    /**
     * The defaults, with the operator and its store named {@code name} ({@link #withName}).
     *
     * @param <K> the key type
     * @param <V> the value type
     * @param name unique in the topology, not blank
     * @return the default settings with that name
     */
    public static <K, V> Async<K, V> as(String name) {
        return Async.<K, V>defaults().withName(name);
    }

    /**
     * Holds at most {@code capacity} records per task: while it holds as many, the task reads no more input.
     * A per-key limit above it is lowered to it.
     *
     * @param capacity positive
     * @return a copy with that capacity
     */
    public Async<K, V> withCapacity(int capacity) {
        int cap = positive("capacity", capacity);
        return new Async<>(
                cap,
                Math.min(capacityPerKey == this.capacity ? cap : capacityPerKey, cap),
                timeout,
                retries,
                firstBackoff,
                maxBackoff,
                partitionOrder,
                name,
                storeType,
                keySerde,
                valueSerde);
    }

    /**
     * Lets at most {@code perKey} calls of one key be in flight at once; later records of the key wait, held,
     * until one of them is done (1: one call per key at a time, for calls that must not overlap).
     *
     * @param perKey positive, at most the capacity
     * @return a copy with that limit
     */
    public Async<K, V> withCapacityPerKey(int perKey) {
        if (positive("capacity per key", perKey) > capacity) {
            throw new IllegalArgumentException(
                    "The capacity per key (" + perKey + ") cannot be above the capacity (" + capacity + ")");
        }
        return new Async<>(
                capacity,
                perKey,
                timeout,
                retries,
                firstBackoff,
                maxBackoff,
                partitionOrder,
                name,
                storeType,
                keySerde,
                valueSerde);
    }

    /**
     * Gives each attempt {@code timeout} of processing time; an attempt that takes longer counts as failed
     * (retried, or handed to the error handler), and its late result is ignored.
     *
     * @param timeout positive
     * @return a copy with that timeout
     */
    public Async<K, V> withTimeout(Duration timeout) {
        return new Async<>(
                capacity,
                capacityPerKey,
                Require.positive("timeout", timeout),
                retries,
                firstBackoff,
                maxBackoff,
                partitionOrder,
                name,
                storeType,
                keySerde,
                valueSerde);
    }

    /**
     * Tries a failed attempt (an exception, a failed stage, a timeout) again up to {@code retries} times,
     * after {@code firstBackoff}, doubling up to {@code maxBackoff}. The record keeps its place in the order
     * while it waits.
     *
     * @param retries how many more attempts after the first; not negative
     * @param firstBackoff the wait before the first retry; not negative
     * @param maxBackoff the longest wait; at least {@code firstBackoff}
     * @return a copy with that retry policy
     */
    public Async<K, V> withRetries(int retries, Duration firstBackoff, Duration maxBackoff) {
        if (retries < 0) {
            throw new IllegalArgumentException("retries must not be negative: " + retries);
        }
        Require.nonNegative("firstBackoff", firstBackoff);
        if (maxBackoff.compareTo(firstBackoff) < 0) {
            throw new IllegalArgumentException(
                    "maxBackoff (" + maxBackoff + ") must be at least firstBackoff (" + firstBackoff + ")");
        }
        return new Async<>(
                capacity,
                capacityPerKey,
                timeout,
                retries,
                firstBackoff,
                maxBackoff,
                partitionOrder,
                name,
                storeType,
                keySerde,
                valueSerde);
    }

    /**
     * Forwards every result in the order its record arrived in the partition, not only per key: a slow call
     * holds back the results of every key behind it.
     *
     * @return a copy that keeps the partition's order
     */
    public Async<K, V> inPartitionOrder() {
        return new Async<>(
                capacity,
                capacityPerKey,
                timeout,
                retries,
                firstBackoff,
                maxBackoff,
                true,
                name,
                storeType,
                keySerde,
                valueSerde);
    }

    /**
     * Names the operator and its store of held records ({@code <application.id>-<name>-changelog} is its
     * changelog), so that a restarted application finds the records held at its last commit whatever else
     * changed in the topology.
     *
     * @param name unique in the topology, not blank
     * @return a copy with that name
     */
    public Async<K, V> withName(String name) {
        return new Async<>(
                capacity,
                capacityPerKey,
                timeout,
                retries,
                firstBackoff,
                maxBackoff,
                partitionOrder,
                Require.name("name", name),
                storeType,
                keySerde,
                valueSerde);
    }

    /**
     * Keeps the held records' store in memory (restored from its changelog on start) instead of RocksDB.
     *
     * @return a copy with an in-memory store
     */
    public Async<K, V> inMemory() {
        return new Async<>(
                capacity,
                capacityPerKey,
                timeout,
                retries,
                firstBackoff,
                maxBackoff,
                partitionOrder,
                name,
                StoreType.IN_MEMORY,
                keySerde,
                valueSerde);
    }

    /**
     * Writes the records held at a commit with these serdes, instead of the stream's (needed when the
     * stream's are unknown, after {@code map} or {@code mapValues}).
     *
     * @param keySerde the keys' serde
     * @param valueSerde the values' serde
     * @return a copy with those serdes
     */
    public Async<K, V> withSerdes(Serde<K> keySerde, Serde<V> valueSerde) {
        return new Async<>(
                capacity,
                capacityPerKey,
                timeout,
                retries,
                firstBackoff,
                maxBackoff,
                partitionOrder,
                name,
                storeType,
                Objects.requireNonNull(keySerde, "keySerde"),
                Objects.requireNonNull(valueSerde, "valueSerde"));
    }

    /**
     * The name given, if any.
     *
     * @return the name given, if any
     */
    public Optional<String> name() {
        return Optional.ofNullable(name);
    }

    /**
     * Where the store of held records lives.
     *
     * @return where the store of held records lives
     */
    public StoreType storeType() {
        return storeType;
    }

    /**
     * The key serde given, if any.
     *
     * @return the key serde given, if any
     */
    public Optional<Serde<K>> keySerde() {
        return Optional.ofNullable(keySerde);
    }

    /**
     * The value serde given, if any.
     *
     * @return the value serde given, if any
     */
    public Optional<Serde<V>> valueSerde() {
        return Optional.ofNullable(valueSerde);
    }

    /**
     * The most records held per task.
     *
     * @return the most records held per task
     */
    public int capacity() {
        return capacity;
    }

    /**
     * The most calls of one key in flight at once.
     *
     * @return the most calls of one key in flight at once
     */
    public int capacityPerKey() {
        return capacityPerKey;
    }

    /**
     * Each attempt's timeout.
     *
     * @return each attempt's timeout
     */
    public Duration timeout() {
        return timeout;
    }

    /**
     * How many times a failed attempt is tried again.
     *
     * @return how many times a failed attempt is tried again
     */
    public int retries() {
        return retries;
    }

    /**
     * The wait before the first retry.
     *
     * @return the wait before the first retry
     */
    public Duration firstBackoff() {
        return firstBackoff;
    }

    /**
     * The longest wait before a retry.
     *
     * @return the longest wait before a retry
     */
    public Duration maxBackoff() {
        return maxBackoff;
    }

    /**
     * Whether results leave in the partition's order, not only per key.
     *
     * @return whether results leave in the partition's order, not only per key
     */
    public boolean partitionOrder() {
        return partitionOrder;
    }

    private static int positive(String what, int n) {
        if (n < 1) {
            throw new IllegalArgumentException(what + " must be positive: " + n);
        }
        return n;
    }
}
