package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.GlobalTable;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.internals.global.GlobalTableSpec;

/** A global table in the graph: its spec, registered with the builder. */
public final class GlobalTableImpl<K, V> implements GlobalTable<K, V> {

    private final String storeName;

    private GlobalTableImpl(String storeName) {
        this.storeName = storeName;
    }

    /** Registers the global table of {@code topic}; refuses the settings a global table does not have. */
    public static <K, V> GlobalTable<K, V> register(
            GraphBuilder graph, String topic, Consumed<K, V> consumed, Materialized<K, V> materialized) {
        String storeName = materialized.storeName().orElse(topic + "-global");
        String refused =
                materialized.keySerde().isPresent() || materialized.valueSerde().isPresent()
                        ? "serdes (the store holds the topic's bytes: its serdes are Consumed's)"
                        : !materialized.loggingEnabled()
                                ? "withLoggingDisabled (a global table has no changelog: its topic is its log)"
                                : materialized.timeToLive().isPresent()
                                        ? "withTimeToLive (a global table holds its topic as it is)"
                                        : materialized.emitsEveryChange()
                                                ? "withEmitEveryChange (a global table emits nothing)"
                                                : materialized.retention().isPresent()
                                                        ? "withRetention"
                                                        : materialized
                                                                        .historyRetention()
                                                                        .isPresent()
                                                                ? "versioned"
                                                                : null;
        if (refused != null) {
            throw new IllegalStateException(
                    "Global table '" + topic + "' in store '" + storeName + "': Materialized sets " + refused);
        }
        if (consumed.watermarkStrategy().maxFutureSkew().isPresent()) {
            throw new IllegalArgumentException(
                    "Global table '" + topic + "': a global table takes every update "
                            + "whatever its event time, so a maximum future skew has nothing to refuse; remove withMaxFutureSkew");
        }
        graph.addGlobalTable(new GlobalTableSpec(storeName, topic, consumed, materialized.storeType()));
        return new GlobalTableImpl<>(storeName);
    }

    @Override
    public String storeName() {
        return storeName;
    }
}
