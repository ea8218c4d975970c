package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.dsl.SessionWindows;
import io.weir.streams.dsl.Table;
import io.weir.streams.dsl.WindowedTable;
import io.weir.streams.dsl.Windows;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.table.TableLookup;
import io.weir.streams.internals.table.WindowRowsProcessor;
import io.weir.streams.internals.topology.KeyValueView;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.time.Windowed;
import org.apache.kafka.common.serialization.Serde;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** The results of one windowed aggregation node: its panes as a stream, or their upsert view as a table. */
final class WindowedTableImpl<K, V> implements WindowedTable<K, V> {

    private final GraphBuilder graph;
    private final String node;
    private final String aggregateStore;
    /** The aggregation's merge logs: a session view adds its own. */
    private final Set<String> mergeLogs;

    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;
    private final Windows windows;
    private final Refinement refinement;

    WindowedTableImpl(
            GraphBuilder graph,
            String node,
            String aggregateStore,
            Set<String> mergeLogs,
            Serde<K> keySerde,
            Serde<V> valueSerde,
            Windows windows,
            Refinement refinement) {
        this.graph = graph;
        this.node = node;
        this.aggregateStore = aggregateStore;
        this.mergeLogs = mergeLogs;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.windows = windows;
        this.refinement = refinement;
    }

    @Override
    public EventStream<Windowed<K>, V> toStream() {
        return new EventStreamImpl<>(graph, List.of(node), WindowedSerdes.of(keySerde), valueSerde, true);
    }

    @Override
    public Table<Windowed<K>, V> toTable() {
        return toTable(Materialized.as(graph.newName("window-table")));
    }

    @Override
    public Table<Windowed<K>, V> toTable(Materialized<Windowed<K>, V> materialized) {
        Objects.requireNonNull(materialized, "materialized");
        String store = materialized.storeName().orElseGet(() -> graph.newName("window-table"));
        String operator = "toTable into store '" + store + "'";
        if (refinement == Refinement.DISCARDING) {
            throw new IllegalStateException(operator + ": DISCARDING panes hold only what arrived since the previous "
                    + "pane, not a window's value, so they make no table; use ACCUMULATING or "
                    + "ACCUMULATING_AND_RETRACTING");
        }
        if (materialized.keySerde().isPresent() || materialized.valueSerde().isPresent()) {
            throw new IllegalStateException(operator + ": the rows are the aggregation's windowed keys and values, "
                    + "with its serdes; remove the serdes from Materialized");
        }
        if (materialized.retention().isPresent()
                || materialized.historyRetention().isPresent()
                || materialized.timeToLive().isPresent()) {
            throw new IllegalStateException(operator + ": a row lives while its window can change (its end plus the "
                    + "allowed lateness), so withRetention, versioned and withTimeToLive do not apply");
        }
        Serde<Windowed<K>> windowedKeys = WindowedSerdes.of(keySerde);
        boolean logged = materialized.loggingEnabled();
        graph.addStore(new StoreSpec(store, materialized.storeType(), logged, -1)
                .queryableAs(KeyValueView.tableRows(store, windowedKeys, valueSerde)));
        String closeStore = store + "-closes";
        graph.addStore(new StoreSpec(closeStore, materialized.storeType(), logged, -1));
        Set<String> stores = new HashSet<>(List.of(store, closeStore));
        String mergeLog = null;
        if (windows instanceof SessionWindows) {
            mergeLog = store + "-merged";
            graph.addStore(new StoreSpec(mergeLog, materialized.storeType(), logged, -1));
            stores.add(mergeLog);
            mergeLogs.add(mergeLog);
        }
        WindowRowsProcessor.Settings<K, V> settings = new WindowRowsProcessor.Settings<>(
                store,
                closeStore,
                mergeLog,
                aggregateStore,
                TimeMath.millis(windows.allowedLateness()),
                keySerde,
                windowedKeys,
                valueSerde,
                materialized.emitsEveryChange());
        String rows = graph.addNode(store, List.of(node), () -> new WindowRowsProcessor<>(settings), stores, Set.of());
        return new TableImpl<>(
                graph,
                List.of(rows),
                windowedKeys,
                valueSerde,
                TableLookup.of(store, null, null, windowedKeys, valueSerde));
    }
}
