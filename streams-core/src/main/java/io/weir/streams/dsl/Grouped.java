package io.weir.streams.dsl;

import io.weir.streams.internals.Require;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * How a stream is grouped: the serdes of the repartition topic Weir creates when the key was changed
 * before the grouping (map, flatMap, selectKey), and that topic's name. Immutable.
 *
 * <p>The repartition topic is {@code <application.id>-<name>-repartition}, with as many partitions as
 * the input of the operators before it unless {@link #withNumberOfPartitions} says otherwise. Event time travels with it: each upstream task writes its
 * watermark to every partition of the topic, and a downstream task's watermark for a partition is the
 * minimum of its upstream tasks' last watermarks (idle upstream tasks left out).
 */
public final class Grouped<K, V> {

    private final @Nullable Serde<K> keySerde;
    private final @Nullable Serde<V> valueSerde;
    private final @Nullable String name;
    private final int partitions;

    private Grouped(@Nullable Serde<K> keySerde, @Nullable Serde<V> valueSerde, @Nullable String name, int partitions) {
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
     * @return a grouping with these serdes, a generated topic name and the default partition count
     */
    public static <K, V> Grouped<K, V> with(@Nullable Serde<K> keySerde, @Nullable Serde<V> valueSerde) {
        return new Grouped<>(keySerde, valueSerde, null, -1);
    }

    /**
     * Names the repartition topic {@code <application.id>-<name>-repartition}.
     *
     * @param name the topic's base name: unique in the topology, not blank
     * @return a copy with that name
     */
    public Grouped<K, V> withName(String name) {
        return new Grouped<>(keySerde, valueSerde, Require.name("name", name), partitions);
    }

    /**
     * The repartition topic's partition count, and so the number of tasks that aggregate the groups: a
     * {@code Table.groupBy} always repartitions; a stream's grouping only after its key was changed, and
     * grouping a stream whose key was not changed with a partition count is refused at build time (use
     * {@code repartition(Repartitioned.withNumberOfPartitions(n))} first).
     *
     * @param count the number of partitions; positive
     * @return a copy with that partition count
     * @throws IllegalArgumentException if {@code count} is not positive
     */
    public Grouped<K, V> withNumberOfPartitions(int count) {
        if (count <= 0) {
            throw new IllegalArgumentException("numberOfPartitions must be positive, was " + count);
        }
        return new Grouped<>(keySerde, valueSerde, name, count);
    }

    /**
     * The key serde; empty when it is taken from the stream.
     *
     * @return the key serde, if given
     */
    public Optional<Serde<K>> keySerde() {
        return Optional.ofNullable(keySerde);
    }

    /**
     * The value serde; empty when it is taken from the stream.
     *
     * @return the value serde, if given
     */
    public Optional<Serde<V>> valueSerde() {
        return Optional.ofNullable(valueSerde);
    }

    /**
     * The repartition topic's base name; empty for a generated one.
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
