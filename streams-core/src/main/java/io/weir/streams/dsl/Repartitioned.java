package io.weir.streams.dsl;

import io.weir.streams.internals.Require;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * How {@link EventStream#repartition(Repartitioned)} writes a stream through an internal topic: the
 * topic's serdes (null: taken from the stream), its name ({@code <application.id>-<name>-repartition};
 * generated {@code repartition-<n>} by default) and its partition count (by default the task count of
 * the operators before it). The partition count sets how many tasks run what follows, so the work
 * after a repartition can be spread wider (or narrower) than its input topic allows. Event time
 * travels with the records as through any repartition (see {@link Grouped}). Immutable.
 */
public final class Repartitioned<K, V> {

    private final @Nullable Serde<K> keySerde;
    private final @Nullable Serde<V> valueSerde;
    private final @Nullable String name;
    private final int partitions;

    private Repartitioned(
            @Nullable Serde<K> keySerde, @Nullable Serde<V> valueSerde, @Nullable String name, int partitions) {
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.name = name;
        this.partitions = partitions;
    }

    /**
     * These serdes for the repartition topic (null: taken from the stream).
     *
     * @param <K> the key type
     * @param <V> the value type
     * @param keySerde serializes the keys; null to take the stream's
     * @param valueSerde serializes the values; null to take the stream's
     * @return a repartition with these serdes, a generated name and the default partition count
     */
    public static <K, V> Repartitioned<K, V> with(@Nullable Serde<K> keySerde, @Nullable Serde<V> valueSerde) {
        return new Repartitioned<>(keySerde, valueSerde, null, -1);
    }

    /**
     * A repartition topic named {@code <application.id>-<name>-repartition}, with the stream's serdes.
     *
     * @param <K> the key type
     * @param <V> the value type
     * @param name the topic's base name: unique in the topology, not blank
     * @return a repartition with that name, the stream's serdes and the default partition count
     */
    public static <K, V> Repartitioned<K, V> as(String name) {
        return new Repartitioned<K, V>(null, null, null, -1).withName(name);
    }

    /**
     * Names the repartition topic {@code <application.id>-<name>-repartition}.
     *
     * @param name the topic's base name: unique in the topology, not blank
     * @return a copy with that name
     */
    public Repartitioned<K, V> withName(String name) {
        return new Repartitioned<>(keySerde, valueSerde, Require.name("name", name), partitions);
    }

    /**
     * The repartition topic's partition count, and so the number of tasks reading it.
     *
     * @param count the number of partitions; positive
     * @return a copy with that partition count
     * @throws IllegalArgumentException if {@code count} is not positive
     */
    public Repartitioned<K, V> withNumberOfPartitions(int count) {
        if (count <= 0) {
            throw new IllegalArgumentException("numberOfPartitions must be positive, was " + count);
        }
        return new Repartitioned<>(keySerde, valueSerde, name, count);
    }

    /**
     * The key serde, if given.
     *
     * @return the key serde, or empty to take the stream's
     */
    public Optional<Serde<K>> keySerde() {
        return Optional.ofNullable(keySerde);
    }

    /**
     * The value serde, if given.
     *
     * @return the value serde, or empty to take the stream's
     */
    public Optional<Serde<V>> valueSerde() {
        return Optional.ofNullable(valueSerde);
    }

    /**
     * The topic's base name; empty for a generated one.
     *
     * @return the base name, if given
     */
    public Optional<String> name() {
        return Optional.ofNullable(name);
    }

    /**
     * The partition count; empty for the task count of the operators before the repartition.
     *
     * @return the partition count, if given
     */
    public OptionalInt numberOfPartitions() {
        return partitions > 0 ? OptionalInt.of(partitions) : OptionalInt.empty();
    }
}
