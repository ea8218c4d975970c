package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Table;
import io.weir.streams.internals.join.ForeignKeyJoinProcessor;
import io.weir.streams.internals.join.ForeignKeySubscriptionProcessor;
import io.weir.streams.internals.join.JoinedRows;
import io.weir.streams.internals.processor.StatelessProcessor;
import io.weir.streams.internals.table.Change;
import io.weir.streams.internals.table.RowFormat;
import io.weir.streams.internals.table.TableLookup;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.serde.Serdes;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A foreign-key join of two tables of one builder as the graph holds it. The left side ({@link
 * ForeignKeyJoinProcessor}) runs in the left table's tasks with the result store ({@link
 * JoinResultStore}); the right side ({@link ForeignKeySubscriptionProcessor}) runs in the right table's
 * tasks with the subscriptions store {@code <store>-subscriptions}. They exchange messages through two
 * internal topics, {@code <store>-subscription-repartition} and {@code <store>-response-repartition},
 * which carry table rows and so are left out of the watermark. The left side forwards both its
 * subscriptions and the join's changes; a filter node after it passes each kind its own way.
 */
final class ForeignKeyJoinPlan {

    private ForeignKeyJoinPlan() {}

    /** Adds the join of {@code table} with {@code other} by the key {@code foreignKey} extracts; returns the joined table. */
    static <K, V, KO, VO, VR> TableImpl<K, VR> wire(
            TableImpl<K, V> table,
            Table<KO, VO> other,
            Function<? super V, ? extends @Nullable KO> foreignKey,
            BiFunction<? super @Nullable V, ? super @Nullable VO, ? extends VR> joiner,
            @Nullable Materialized<K, VR> materialized,
            boolean leftJoin) {
        Objects.requireNonNull(foreignKey, "foreignKey");
        TableImpl<KO, VO> o = table.sameBuilder(other);
        GraphBuilder graph = table.graph;
        TableLookup<K, V> left = table.lookup;
        TableLookup<KO, VO> right = o.lookup;
        Supplier<RowFormat<K, VR>> rows = () -> new JoinedRows<K, V, KO, VO, VR>(
                left.newFormat(),
                right.newFormat(),
                (k, l) -> l == null ? null : foreignKey.apply(l),
                joiner,
                leftJoin,
                false);
        StoreSpec resultStore =
                JoinResultStore.add(graph, leftJoin ? "fk-left-join" : "fk-join", materialized, left.keySerde(), rows);
        String store = resultStore.name();
        String subscriptionStore = store + "-subscriptions";
        graph.addStore(new StoreSpec(subscriptionStore, resultStore.type(), resultStore.logged(), -1));
        ForeignKeyJoinProcessor.Settings<K, V, KO, VR> settings = new ForeignKeyJoinProcessor.Settings<>(
                store,
                left,
                foreignKey,
                right.keySerde(),
                rows,
                leftJoin,
                materialized != null && materialized.emitsEveryChange());
        List<String> leftParents = new ArrayList<>(table.nodes);
        leftParents.add(RepartitionTopics.sourceName(store + "-response"));
        Set<String> leftStores = new HashSet<>(left.stores());
        leftStores.add(store);
        String leftSide =
                graph.addNode(store, leftParents, () -> new ForeignKeyJoinProcessor<>(settings), leftStores, Set.of());
        String subscribe = passOnly(graph, store + "-subscribe", leftSide, byte[].class);
        sendMessages(graph, subscribe, store + "-subscription");
        List<String> rightParents = new ArrayList<>();
        rightParents.add(RepartitionTopics.sourceName(store + "-subscription"));
        rightParents.addAll(o.nodes);
        Set<String> rightStores = new HashSet<>(right.stores());
        rightStores.add(subscriptionStore);
        String rightSide = graph.addNode(
                subscriptionStore,
                rightParents,
                () -> new ForeignKeySubscriptionProcessor<>(subscriptionStore, right),
                rightStores,
                Set.of());
        sendMessages(graph, rightSide, store + "-response");
        String results = passOnly(graph, store + "-results", leftSide, Change.class);
        return new TableImpl<>(
                graph, List.of(results), table.keySerde, null, TableLookup.of(store, left.keySerde(), rows));
    }

    /**
     * Adds the node {@code name} after {@code parent} that passes on only the records whose value is a
     * {@code valueType}: the left side forwards records of two types, each filter passes those of one.
     */
    private static String passOnly(GraphBuilder graph, String name, String parent, Class<?> valueType) {
        return graph.addNode(
                name,
                List.of(parent),
                () -> new StatelessProcessor<Object, Object, Object, Object>((r, out) -> {
                    if (valueType.isInstance(r.value())) {
                        out.accept(r);
                    }
                }),
                Set.of(),
                Set.of());
    }

    /** Writes what {@code node} emits, serialized messages, to the internal topic of {@code base}. */
    private static void sendMessages(GraphBuilder graph, String node, String base) {
        RepartitionTopics.throughTableMessages(graph, List.of(node), base, Serdes.ByteArray(), Serdes.ByteArray());
    }
}
