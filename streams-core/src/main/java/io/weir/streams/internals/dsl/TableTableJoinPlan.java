package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Table;
import io.weir.streams.internals.join.JoinedRows;
import io.weir.streams.internals.join.TableTableJoinProcessor;
import io.weir.streams.internals.table.RowFormat;
import io.weir.streams.internals.table.TableLookup;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * A join of two tables of one builder by key as the graph holds it ({@link TableTableJoinProcessor}): one
 * node with both tables as parents, listing both tables' stores and its result store ({@link
 * JoinResultStore}), so that both tables and the join run in the same tasks. The result is a table read
 * through the joined rows it keeps.
 */
final class TableTableJoinPlan {

    private TableTableJoinPlan() {}

    /** Adds the join of {@code table} with {@code other}; returns the joined table. */
    static <K, V, VO, VR> TableImpl<K, VR> wire(
            TableImpl<K, V> table,
            Table<K, VO> other,
            BiFunction<? super @Nullable V, ? super @Nullable VO, ? extends VR> joiner,
            @Nullable Materialized<K, VR> materialized,
            boolean leftOuter,
            boolean rightOuter) {
        Objects.requireNonNull(joiner, "joiner");
        TableImpl<K, VO> o = table.sameBuilder(other);
        GraphBuilder graph = table.graph;
        TableLookup<K, V> left = table.lookup;
        TableLookup<K, VO> right = o.lookup;
        Supplier<RowFormat<K, VR>> rows = () -> new JoinedRows<K, V, K, VO, VR>(
                left.newFormat(), right.newFormat(), (k, l) -> k, joiner, leftOuter, rightOuter);
        String kind = rightOuter ? "outer-join" : leftOuter ? "left-join" : "join";
        String store = JoinResultStore.add(graph, kind, materialized, left.keySerde(), rows)
                .name();
        Set<String> stores = new HashSet<>(left.stores());
        stores.addAll(right.stores());
        stores.add(store);
        TableTableJoinProcessor.Settings<K, V, VO, VR> settings = new TableTableJoinProcessor.Settings<>(
                store, left, right, rows, materialized != null && materialized.emitsEveryChange());
        List<String> parents = new ArrayList<>(table.nodes);
        parents.addAll(o.nodes);
        String node = graph.addNode(store, parents, () -> new TableTableJoinProcessor<>(settings), stores, Set.of());
        return new TableImpl<>(
                graph, List.of(node), table.keySerde, null, TableLookup.of(store, left.keySerde(), rows));
    }
}
