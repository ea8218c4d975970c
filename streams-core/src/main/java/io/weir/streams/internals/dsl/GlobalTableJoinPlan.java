package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.GlobalTable;
import io.weir.streams.dsl.Named;
import io.weir.streams.internals.join.GlobalTableJoinProcessor;
import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * A stream's join with a global table as the graph holds it ({@link GlobalTableJoinProcessor}): one node
 * that reads the table's store by the key it selects. Every task holds the whole table, so the stream is
 * not repartitioned, keeps its key (and whether that key changed), and lists no store: the global store
 * is not a task's.
 */
final class GlobalTableJoinPlan {

    private GlobalTableJoinPlan() {}

    /** Adds the join's node after {@code stream}, as the operator {@code named} or a generated name; returns the joined stream. */
    static <K, V, GK, GV, VR> EventStreamImpl<K, VR> wire(
            EventStreamImpl<K, V> stream,
            GlobalTable<GK, GV> table,
            BiFunction<? super K, ? super V, ? extends @Nullable GK> keySelector,
            BiFunction<? super V, ? super GV, ? extends VR> joiner,
            boolean left,
            @Nullable Named named) {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(keySelector, "keySelector");
        Objects.requireNonNull(joiner, "joiner");
        GraphBuilder graph = stream.graph;
        String store = GlobalTableImpl.storeOf(table, graph);
        String kind = left ? "global-left-join" : "global-join";
        String name = graph.addNode(
                named != null ? named.name() : graph.newName(kind),
                stream.nodes,
                () -> new GlobalTableJoinProcessor<K, V, GK, GV, VR>(store, keySelector, joiner, left),
                Set.of(),
                Set.of());
        return new EventStreamImpl<>(graph, List.of(name), stream.keySerde, null, stream.keyChanged);
    }
}
