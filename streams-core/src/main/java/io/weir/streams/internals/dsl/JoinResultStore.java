package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.Materialized;
import io.weir.streams.internals.table.RowFormat;
import io.weir.streams.internals.topology.KeyValueView;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.state.StoreType;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.util.function.Supplier;

/**
 * The store of a join that gives a table (by key or by foreign key): it holds the input rows each result
 * was computed from ({@code JoinedRows}), not the results, so {@code Materialized} names, places and logs
 * it but gives it no serdes and no retention. Shared by {@link TableTableJoinPlan} and {@link
 * ForeignKeyJoinPlan}.
 */
final class JoinResultStore {

    private JoinResultStore() {}

    /**
     * Adds the result store of a {@code kind} join, named, placed and logged as {@code materialized} says
     * (RocksDB and logged without one), queryable as a key-value store whose values the joiner computes
     * from the rows it holds ({@code rows}); refuses what {@code materialized} sets that it cannot take.
     */
    static <K, VR> StoreSpec add(
            GraphBuilder graph,
            String kind,
            @Nullable Materialized<?, ?> materialized,
            Serde<K> resultKeySerde,
            Supplier<RowFormat<K, VR>> rows) {
        String store = materialized == null
                ? graph.newName("table-" + kind)
                : materialized.storeName().orElseGet(() -> graph.newName("table-" + kind));
        if (materialized != null) {
            refuse(kind + " into store '" + store + "'", materialized);
        }
        StoreSpec spec = new StoreSpec(
                store,
                materialized == null ? StoreType.ROCKSDB : materialized.storeType(),
                materialized == null || materialized.loggingEnabled(),
                -1);
        graph.addStore(spec.queryableAs(KeyValueView.rows(store, resultKeySerde, rows)));
        return spec;
    }

    /** Refuses the settings of {@code materialized} a join's result store does not take. */
    private static void refuse(String operator, Materialized<?, ?> materialized) {
        if (materialized.keySerde().isPresent() || materialized.valueSerde().isPresent()) {
            throw new IllegalStateException(operator + ": the store holds the rows it joined, with the input tables' "
                    + "serdes; remove the serdes from Materialized (to keep the results in your own format, "
                    + "materialize the joined table, e.g. with filter(predicate, Materialized))");
        }
        if (materialized.retention().isPresent()
                || materialized.historyRetention().isPresent()
                || materialized.timeToLive().isPresent()) {
            throw new IllegalStateException(operator + ": withRetention, versioned and withTimeToLive are not for a "
                    + "join's result; give them to the input tables");
        }
    }
}
