package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.Async;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.async.AsyncCalls;
import io.weir.streams.internals.async.AsyncSettings;
import io.weir.streams.internals.async.AsyncValuesProcessor;
import io.weir.streams.internals.topology.StoreSpec;
import org.apache.kafka.common.serialization.Serde;

import java.util.List;
import java.util.Set;

/**
 * A stream's {@code mapValuesAsync} or {@code flatMapValuesAsync} as the graph holds it ({@link
 * AsyncValuesProcessor}): the store of the records held at a commit ({@code <name>}, changelogged) and the
 * node; and the parts {@code processAsync} shares. No repartition: the order it keeps is per key within a
 * task.
 */
final class AsyncPlan {

    private AsyncPlan() {}

    /** The serdes an asynchronous operator keeps its held records with. */
    record HeldSerdes<K, V>(Serde<K> keySerde, Serde<V> valueSerde) {}

    /**
     * @param manyValues whether each answer is an iterable of values, each forwarded ({@code
     *     flatMapValuesAsync}), rather than one value
     * @param <R> what a call answers
     * @param <V2> the values forwarded: {@code R}, or the elements of {@code R}
     */
    static <K, V, R, V2> EventStreamImpl<K, V2> wire(
            EventStreamImpl<K, V> stream, AsyncCalls.Call<K, V, R> call, Async<K, V> async, boolean manyValues) {
        GraphBuilder graph = stream.graph;
        String name = async.name().orElseGet(() -> graph.newName("async"));
        HeldSerdes<K, V> serdes = heldSerdes(stream, async, manyValues ? "flatMapValuesAsync" : "mapValuesAsync", name);
        graph.addStore(heldStore(name, async));
        AsyncValuesProcessor.Settings<K, V, R> processor = new AsyncValuesProcessor.Settings<>(
                name, settings(async), call, serdes.keySerde(), serdes.valueSerde(), manyValues);
        String node =
                graph.addNode(name, stream.nodes, () -> new AsyncValuesProcessor<>(processor), Set.of(name), Set.of());
        return new EventStreamImpl<>(graph, List.of(node), stream.keySerde, null, stream.keyChanged);
    }

    /**
     * The serdes of the held records: {@code async}'s, else the stream's.
     *
     * @throws IllegalStateException when neither gives one
     */
    static <K, V> HeldSerdes<K, V> heldSerdes(
            EventStreamImpl<K, V> stream, Async<K, V> async, String operation, String name) {
        Serde<K> keySerde = async.keySerde().orElse(stream.keySerde);
        Serde<V> valueSerde = async.valueSerde().orElse(stream.valueSerde);
        if (keySerde == null || valueSerde == null) {
            throw new IllegalStateException(operation + " '" + name + "': the stream's "
                    + (keySerde == null ? "key" : "value") + " serde is unknown (after map, selectKey or mapValues), "
                    + "and the records whose calls are in flight at a commit are kept with it; give both with "
                    + "Async.withSerdes(keySerde, valueSerde)");
        }
        stream.graph.useSerde(keySerde, true);
        stream.graph.useSerde(valueSerde, false);
        return new HeldSerdes<>(keySerde, valueSerde);
    }

    /** The store of the records held at a commit: {@code <name>}, changelogged. */
    static StoreSpec heldStore(String name, Async<?, ?> async) {
        return new StoreSpec(name, async.storeType(), true, -1);
    }

    static AsyncSettings settings(Async<?, ?> async) {
        return new AsyncSettings(
                async.capacity(),
                async.capacityPerKey(),
                TimeMath.millis(async.timeout()),
                async.retries(),
                TimeMath.millis(async.firstBackoff()),
                TimeMath.millis(async.maxBackoff()),
                async.partitionOrder() ? AsyncSettings.Order.PARTITION : AsyncSettings.Order.PER_KEY);
    }
}
