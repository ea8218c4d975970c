package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.keyed.KeyedProcessorNode;
import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.topology.KeyValueView;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.WindowView;
import io.weir.streams.state.StoreType;
import org.apache.kafka.common.serialization.Serde;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A keyed processor ({@code process}, {@code processAsync}) as the graph holds it: the stores it declared,
 * each checked, queryable and changelogged as asked, its timer store ({@code <node>-timers}), and the node.
 */
final class KeyedProcessorPlan {

    /** The stores of a keyed processor node: their serdes, the timer store, and every name, for the node. */
    record Declared(List<KeyedProcessorNode.StoreSerdes> stores, String timerStore, Set<String> storeNames) {}

    private KeyedProcessorPlan() {}

    /**
     * Adds the stores {@code stores} and the timer store of keyed processor {@code node} to the graph.
     *
     * @param operation the DSL method, for messages
     * @throws IllegalStateException when a store lacks a name or serdes, or sets what only tables have
     */
    static Declared declare(
            GraphBuilder graph, String operation, String node, Serde<?> keySerde, Materialized<?, ?>... stores) {
        graph.useSerde(keySerde, true);
        List<KeyedProcessorNode.StoreSerdes> declared = new ArrayList<>();
        Set<String> storeNames = new HashSet<>();
        for (int i = 0; i < stores.length; i++) {
            Materialized<?, ?> store = Objects.requireNonNull(stores[i], "store #" + (i + 1));
            String where = operation + " '" + node + "': store #" + (i + 1);
            if (store.storeName().isEmpty()
                    || store.keySerde().isEmpty()
                    || store.valueSerde().isEmpty()) {
                throw new IllegalStateException(where + " needs a name, a key serde "
                        + "and a value serde: Materialized.as(name).withKeySerde(...).withValueSerde(...)");
            }
            if (store.timeToLive().isPresent() || store.historyRetention().isPresent()) {
                throw new IllegalStateException(where + " sets withTimeToLive or versioned, which are for tables; "
                        + "give a keyed processor's store withRetention, or delete entries from a timer");
            }
            if (store.emitsEveryChange()) {
                throw new IllegalStateException(where + " sets withEmitEveryChange, which is for tables; a keyed "
                        + "processor emits what it forwards");
            }
            String name = store.storeName().get();
            Serde<?> storeKeys = store.keySerde().get();
            Serde<?> storeValues = store.valueSerde().get();
            long retention = store.retention().map(TimeMath::millis).orElse(-1L);
            // A window store's purges are range deletes, which leave no tombstone in the changelog: its
            // changelog deletes by time too, a day after the retention, as for window aggregations.
            long changelogRetention = retention < 0
                    ? -1
                    : TimeMath.plus(retention, Duration.ofDays(1).toMillis());
            StoreSpec spec = new StoreSpec(name, store.storeType(), store.loggingEnabled(), changelogRetention);
            graph.addStore(spec.queryableAs(
                    retention < 0
                            ? KeyValueView.plain(name, storeKeys, storeValues)
                            : WindowView.times(name, storeKeys, storeValues)));
            storeNames.add(name);
            graph.useSerde(storeKeys, true);
            graph.useSerde(storeValues, false);
            declared.add(new KeyedProcessorNode.StoreSerdes(name, storeKeys, storeValues, retention));
        }
        // Timers live where the processor's state does: in-memory stores get in-memory timers. They always
        // have a changelog, even beside unlogged stores: a timer lost when its task moves never fires.
        String timerStore = node + "-timers";
        StoreType timerStoreType = stores.length > 0 ? stores[0].storeType() : StoreType.ROCKSDB;
        graph.addStore(new StoreSpec(timerStore, timerStoreType, true, -1));
        storeNames.add(timerStore);
        return new Declared(List.copyOf(declared), timerStore, Set.copyOf(storeNames));
    }

    /**
     * Adds the node, with the declared stores and {@code moreStores}; its output's serdes are unknown.
     *
     * @param moreStores stores of the node besides those it declared (added to the graph already)
     */
    static <KOut, VOut> EventStream<KOut, VOut> wire(
            EventStreamImpl<?, ?> stream,
            String node,
            Declared declared,
            Set<String> moreStores,
            Supplier<? extends Processor<?, ?>> processor) {
        Set<String> storeNames = new HashSet<>(declared.storeNames());
        storeNames.addAll(moreStores);
        stream.graph.addNode(node, stream.nodes, processor, storeNames, Set.of());
        return new EventStreamImpl<>(stream.graph, List.of(node), null, null, true);
    }
}
