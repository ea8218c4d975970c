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
 * A stream's {@code mapValuesAsync} or {@code flatMapValuesAsync} as the graph holds it ({@link AsyncValuesProcessor}): the
 * store of the records held at a commit ({@code <name>}, changelogged) and the node. No repartition: the
 * order it keeps is per key within a task.
 */
final class AsyncPlan {

    private AsyncPlan() {}

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
        Serde<K> keySerde = async.keySerde().orElse(stream.keySerde);
        Serde<V> valueSerde = async.valueSerde().orElse(stream.valueSerde);
        if (keySerde == null || valueSerde == null) {
            throw new IllegalStateException((manyValues ? "flatMapValuesAsync '" : "mapValuesAsync '") + name
                    + "': the stream's "
                    + (keySerde == null ? "key" : "value") + " serde is unknown (after map, selectKey or mapValues), "
                    + "and the records whose calls are in flight at a commit are kept with it; give both with "
                    + "Async.withSerdes(keySerde, valueSerde)");
        }
        graph.useSerde(keySerde, true);
        graph.useSerde(valueSerde, false);
        graph.addStore(new StoreSpec(name, async.storeType(), true, -1));
        AsyncSettings settings = new AsyncSettings(
                async.capacity(),
                async.capacityPerKey(),
                TimeMath.millis(async.timeout()),
                async.retries(),
                TimeMath.millis(async.firstBackoff()),
                TimeMath.millis(async.maxBackoff()),
                async.partitionOrder() ? AsyncSettings.Order.PARTITION : AsyncSettings.Order.PER_KEY);
        AsyncValuesProcessor.Settings<K, V, R> processor =
                new AsyncValuesProcessor.Settings<>(name, settings, call, keySerde, valueSerde, manyValues);
        String node =
                graph.addNode(name, stream.nodes, () -> new AsyncValuesProcessor<>(processor), Set.of(name), Set.of());
        return new EventStreamImpl<>(graph, List.of(node), stream.keySerde, null, stream.keyChanged);
    }
}
