package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.Deduplicated;
import io.weir.streams.internals.Require;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.dedup.DeduplicateProcessor;
import io.weir.streams.internals.topology.StoreSpec;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * A stream's deduplication as the graph holds it ({@link DeduplicateProcessor}): a repartition if the key
 * changed (the ids seen are kept per key), the store of ids seen ({@code <name>}) and its expiry index
 * ({@code <name>-expiry}), and the node.
 */
final class DeduplicationPlan {

    /** The id of a record deduplicated by its key alone. */
    private static final byte[] NO_ID = new byte[0];

    private DeduplicationPlan() {}

    /** Adds a deduplication by key and {@code idSelector}'s id, or by key alone when it is null; returns its stream. */
    static <K, V, I> EventStreamImpl<K, V> wire(
            EventStreamImpl<K, V> stream,
            Duration within,
            Deduplicated<I> deduplicated,
            @Nullable BiFunction<? super K, ? super V, ? extends I> idSelector) {
        long interval = TimeMath.millis(Require.positive("within", within));
        GraphBuilder graph = stream.graph;
        String name = deduplicated.name().orElseGet(() -> graph.newName("dedup"));
        Serializer<I> idSerializer = deduplicated.idSerde().serializer();
        BiFunction<? super K, ? super V, byte @Nullable []> ids = idSelector == null
                ? (key, value) -> NO_ID
                : (key, value) -> {
                    I id = idSelector.apply(key, value);
                    return id == null ? null : idSerializer.serialize(name, id);
                };
        Serde<K> keySerde = stream.keySerde;
        if (keySerde == null) {
            throw new IllegalStateException("deduplicate '" + name + "': the stream's key serde is unknown (after "
                    + "selectKey or map), and the records that passed are kept by key; give it first with "
                    + "repartition(Repartitioned.with(keySerde, valueSerde))");
        }
        EventStreamImpl<K, V> input = stream;
        if (stream.keyChanged) {
            if (stream.valueSerde == null) {
                throw new IllegalStateException("deduplicate '" + name + "': the key was changed, so records are "
                        + "repartitioned by key first, and the stream's value serde is unknown; repartition it "
                        + "with Repartitioned.with(keySerde, valueSerde) first");
            }
            input = stream.through(name, keySerde, stream.valueSerde, -1);
        }
        graph.useSerde(keySerde, true);
        graph.useSerde(deduplicated.idSerde(), true);
        String expiryStore = name + "-expiry";
        graph.addStore(new StoreSpec(name, deduplicated.storeType(), true, -1));
        graph.addStore(new StoreSpec(expiryStore, deduplicated.storeType(), true, -1));
        String lateTopic = deduplicated.lateTopic().orElse(null);
        DeduplicateProcessor.Settings<K, V> settings = new DeduplicateProcessor.Settings<>(
                name,
                expiryStore,
                interval,
                TimeMath.millis(deduplicated.allowedLateness()),
                lateTopic,
                keySerde.serializer(),
                ids);
        String node = graph.addNode(
                name,
                input.nodes,
                () -> new DeduplicateProcessor<>(settings),
                Set.of(name, expiryStore),
                lateTopic == null ? Set.of() : Set.of(lateTopic));
        return new EventStreamImpl<>(graph, List.of(node), keySerde, stream.valueSerde, false);
    }
}
