package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.GlobalTable;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.internals.topology.GlobalTableSpec;
import org.jspecify.annotations.Nullable;

/** A global table in the graph: its spec, registered with the builder. */
public final class GlobalTableImpl<K, V> implements GlobalTable<K, V> {

    private final GraphBuilder graph;
    private final String storeName;

    private GlobalTableImpl(GraphBuilder graph, String storeName) {
        this.graph = graph;
        this.storeName = storeName;
    }

    /**
     * The store of {@code table}, which a stream of {@code graph} joins.
     *
     * @throws IllegalArgumentException if {@code table} is not a global table of {@code graph}
     */
    static String storeOf(GlobalTable<?, ?> table, GraphBuilder graph) {
        if (!(table instanceof GlobalTableImpl<?, ?> impl) || impl.graph != graph) {
            throw new IllegalArgumentException("Global table '" + table.storeName()
                    + "' was not made by this stream's StreamsBuilder: join only tables of the same builder");
        }
        return impl.storeName;
    }

    /** Registers the global table of {@code topic}; refuses the settings a global table does not have. */
    public static <K, V> GlobalTable<K, V> register(
            GraphBuilder graph, String topic, Consumed<K, V> consumed, Materialized<K, V> materialized) {
        String storeName = materialized.storeName().orElse(topic + "-global");
        String refused = refusedSetting(materialized);
        if (refused != null) {
            throw new IllegalStateException(
                    "Global table '" + topic + "' in store '" + storeName + "': Materialized sets " + refused);
        }
        graph.addGlobalTable(new GlobalTableSpec(storeName, topic, consumed, materialized.storeType()));
        return new GlobalTableImpl<>(graph, storeName);
    }

    /** The first setting of {@code materialized} a global table does not have, with why; null if none. */
    private static @Nullable String refusedSetting(Materialized<?, ?> materialized) {
        if (materialized.keySerde().isPresent() || materialized.valueSerde().isPresent()) {
            return "serdes (the store holds the topic's bytes: its serdes are Consumed's)";
        }
        if (!materialized.loggingEnabled()) {
            return "withLoggingDisabled (a global table has no changelog: its topic is its log)";
        }
        if (materialized.timeToLive().isPresent()) {
            return "withTimeToLive (a global table holds its topic as it is)";
        }
        if (materialized.emitsEveryChange()) {
            return "withEmitEveryChange (a global table emits nothing)";
        }
        if (materialized.retention().isPresent()) {
            return "withRetention";
        }
        return materialized.historyRetention().isPresent() ? "versioned" : null;
    }

    @Override
    public String storeName() {
        return storeName;
    }
}
