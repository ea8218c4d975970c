package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.Async;
import io.weir.streams.dsl.Branches;
import io.weir.streams.dsl.Deduplicated;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.GlobalTable;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.GroupedStream;
import io.weir.streams.dsl.JoinWindows;
import io.weir.streams.dsl.Joined;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.Named;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Repartitioned;
import io.weir.streams.dsl.StreamJoined;
import io.weir.streams.dsl.Table;
import io.weir.streams.dsl.TopicNameExtractor;
import io.weir.streams.internals.Require;
import io.weir.streams.internals.processor.StatelessProcessor;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * A stream in the graph: the node whose output it is, the serdes known for its keys and values (null
 * when an operator changed the type), and whether its key differs from the source's partitioning.
 *
 * <p>An operator's public overloads (with and without {@code Named}) only delegate to its one path:
 * for the stateless operators, {@link #step} with the operator's {@link StatelessSteps} step; for the
 * others, a private method that takes the name, or null for a generated one. The wiring of each other
 * concept has a class of its own, which reads this stream's fields: the joins ({@link
 * StreamStreamJoinPlan}, {@link StreamTableJoinPlan}, {@link GlobalTableJoinPlan}), the deduplication
 * ({@link DeduplicationPlan}), the sinks ({@link SinkPlan}), the grouping ({@link
 * GroupedStreamImpl#byKey}) and the repartition topics ({@link RepartitionTopics}, through {@link
 * #through}).
 */
public final class EventStreamImpl<K, V> implements EventStream<K, V> {

    final GraphBuilder graph;
    final List<String> nodes;
    final @Nullable Serde<K> keySerde;
    final @Nullable Serde<V> valueSerde;
    final boolean keyChanged;

    EventStreamImpl(
            GraphBuilder graph,
            List<String> nodes,
            @Nullable Serde<K> keySerde,
            @Nullable Serde<V> valueSerde,
            boolean keyChanged) {
        this.graph = graph;
        this.nodes = nodes;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.keyChanged = keyChanged;
    }

    /** A source's stream. */
    public static <K, V> EventStreamImpl<K, V> source(
            GraphBuilder graph, String node, @Nullable Serde<K> keySerde, @Nullable Serde<V> valueSerde) {
        return new EventStreamImpl<>(graph, List.of(node), keySerde, valueSerde, false);
    }

    /** {@code named}'s name, or a generated {@code <kind>-<n>}. */
    private String nameOf(@Nullable Named named, String kind) {
        return named != null ? named.name() : graph.newName(kind);
    }

    /**
     * Adds a stateless step; the stream after it has the serdes given (null: unknown), and a changed key
     * if this one had or {@code changesKey}.
     */
    private <K2, V2> EventStreamImpl<K2, V2> step(
            String kind,
            @Nullable Named named,
            @Nullable Serde<K2> newKeySerde,
            @Nullable Serde<V2> newValueSerde,
            boolean changesKey,
            StatelessProcessor.Step<K, V, K2, V2> step) {
        String name =
                graph.addNode(nameOf(named, kind), nodes, () -> new StatelessProcessor<>(step), Set.of(), Set.of());
        return new EventStreamImpl<>(graph, List.of(name), newKeySerde, newValueSerde, keyChanged || changesKey);
    }

    /** A step that keeps keys and values as they are typed, and so their serdes. */
    private EventStreamImpl<K, V> sameTypes(
            String kind, @Nullable Named named, StatelessProcessor.Step<K, V, K, V> step) {
        return step(kind, named, keySerde, valueSerde, false, step);
    }

    /** A step that keeps the key and gives new values, of a serde not known. */
    private <V2> EventStreamImpl<K, V2> newValues(
            String kind, @Nullable Named named, StatelessProcessor.Step<K, V, K, V2> step) {
        return step(kind, named, keySerde, null, false, step);
    }

    /** A step that gives new keys (and maybe values), which the stream is no longer partitioned by. */
    private <K2, V2> EventStreamImpl<K2, V2> newKeys(
            String kind,
            @Nullable Named named,
            @Nullable Serde<V2> newValueSerde,
            StatelessProcessor.Step<K, V, K2, V2> step) {
        return step(kind, named, null, newValueSerde, true, step);
    }

    @Override
    public EventStream<K, V> filter(BiPredicate<? super K, ? super V> predicate) {
        return sameTypes("filter", null, StatelessSteps.filter(predicate, true));
    }

    @Override
    public EventStream<K, V> filter(BiPredicate<? super K, ? super V> predicate, Named named) {
        return sameTypes("filter", Objects.requireNonNull(named, "named"), StatelessSteps.filter(predicate, true));
    }

    @Override
    public EventStream<K, V> filterNot(BiPredicate<? super K, ? super V> predicate) {
        return sameTypes("filter-not", null, StatelessSteps.filter(predicate, false));
    }

    @Override
    public EventStream<K, V> filterNot(BiPredicate<? super K, ? super V> predicate, Named named) {
        return sameTypes("filter-not", Objects.requireNonNull(named, "named"), StatelessSteps.filter(predicate, false));
    }

    @Override
    public <K2, V2> EventStream<K2, V2> map(BiFunction<? super K, ? super V, KeyValue<K2, V2>> mapper) {
        return newKeys("map", null, null, StatelessSteps.map(mapper));
    }

    @Override
    public <K2, V2> EventStream<K2, V2> map(BiFunction<? super K, ? super V, KeyValue<K2, V2>> mapper, Named named) {
        return newKeys("map", Objects.requireNonNull(named, "named"), null, StatelessSteps.map(mapper));
    }

    @Override
    public <V2> EventStream<K, V2> mapValues(Function<? super V, ? extends V2> mapper) {
        return newValues("map-values", null, StatelessSteps.mapValues(mapper));
    }

    @Override
    public <V2> EventStream<K, V2> mapValues(Function<? super V, ? extends V2> mapper, Named named) {
        return newValues("map-values", Objects.requireNonNull(named, "named"), StatelessSteps.mapValues(mapper));
    }

    @Override
    public <V2> EventStream<K, V2> mapValuesAsync(Function<? super V, ? extends CompletionStage<? extends V2>> call) {
        return mapValuesAsync(call, Async.defaults());
    }

    @Override
    public <V2> EventStream<K, V2> mapValuesAsync(
            Function<? super V, ? extends CompletionStage<? extends V2>> call, Async<K, V> async) {
        Objects.requireNonNull(call, "call");
        return AsyncPlan.wire(this, (key, value) -> call.apply(value), Objects.requireNonNull(async, "async"), false);
    }

    @Override
    public <V2> EventStream<K, V2> mapValuesAsync(
            BiFunction<? super K, ? super V, ? extends CompletionStage<? extends V2>> call, Async<K, V> async) {
        Objects.requireNonNull(call, "call");
        return AsyncPlan.wire(this, call::apply, Objects.requireNonNull(async, "async"), false);
    }

    @Override
    public <V2> EventStream<K, V2> flatMapValuesAsync(
            Function<? super V, ? extends CompletionStage<? extends Iterable<? extends V2>>> call, Async<K, V> async) {
        Objects.requireNonNull(call, "call");
        return AsyncPlan.wire(this, (key, value) -> call.apply(value), Objects.requireNonNull(async, "async"), true);
    }

    @Override
    public <V2> EventStream<K, V2> flatMapValuesAsync(
            BiFunction<? super K, ? super V, ? extends CompletionStage<? extends Iterable<? extends V2>>> call,
            Async<K, V> async) {
        Objects.requireNonNull(call, "call");
        return AsyncPlan.wire(this, call::apply, Objects.requireNonNull(async, "async"), true);
    }

    @Override
    public <K2, V2> EventStream<K2, V2> flatMap(
            BiFunction<? super K, ? super V, ? extends Iterable<KeyValue<K2, V2>>> mapper) {
        return newKeys("flat-map", null, null, StatelessSteps.flatMap(mapper));
    }

    @Override
    public <K2, V2> EventStream<K2, V2> flatMap(
            BiFunction<? super K, ? super V, ? extends Iterable<KeyValue<K2, V2>>> mapper, Named named) {
        return newKeys("flat-map", Objects.requireNonNull(named, "named"), null, StatelessSteps.flatMap(mapper));
    }

    @Override
    public <V2> EventStream<K, V2> flatMapValues(Function<? super V, ? extends Iterable<? extends V2>> mapper) {
        return newValues("flat-map-values", null, StatelessSteps.flatMapValues(mapper));
    }

    @Override
    public <V2> EventStream<K, V2> flatMapValues(
            Function<? super V, ? extends Iterable<? extends V2>> mapper, Named named) {
        return newValues(
                "flat-map-values", Objects.requireNonNull(named, "named"), StatelessSteps.flatMapValues(mapper));
    }

    @Override
    public EventStream<K, V> peek(BiConsumer<? super K, ? super V> action) {
        return sameTypes("peek", null, StatelessSteps.peek(action));
    }

    @Override
    public EventStream<K, V> peek(BiConsumer<? super K, ? super V> action, Named named) {
        return sameTypes("peek", Objects.requireNonNull(named, "named"), StatelessSteps.peek(action));
    }

    @Override
    public <K2> EventStream<K2, V> selectKey(BiFunction<? super K, ? super V, ? extends K2> keyMapper) {
        return newKeys("select-key", null, valueSerde, StatelessSteps.selectKey(keyMapper));
    }

    @Override
    public <K2> EventStream<K2, V> selectKey(BiFunction<? super K, ? super V, ? extends K2> keyMapper, Named named) {
        return newKeys(
                "select-key", Objects.requireNonNull(named, "named"), valueSerde, StatelessSteps.selectKey(keyMapper));
    }

    @Override
    public Branches<K, V> split() {
        return new BranchesImpl<>(this);
    }

    @Override
    public EventStream<K, V> merge(EventStream<K, V> other) {
        return mergeAs(other, null);
    }

    @Override
    public EventStream<K, V> merge(EventStream<K, V> other, Named named) {
        return mergeAs(other, Objects.requireNonNull(named, "named"));
    }

    private EventStream<K, V> mergeAs(EventStream<K, V> other, @Nullable Named named) {
        EventStreamImpl<K, V> o = (EventStreamImpl<K, V>) Objects.requireNonNull(other, "other");
        if (o.graph != graph) {
            throw new IllegalArgumentException("merge: the other stream belongs to another StreamsBuilder");
        }
        List<String> parents = new ArrayList<>(nodes);
        parents.addAll(o.nodes);
        String name = graph.addNode(
                nameOf(named, "merge"),
                parents,
                () -> new StatelessProcessor<K, V, K, V>((r, out) -> out.accept(r)),
                Set.of(),
                Set.of());
        return new EventStreamImpl<>(
                graph,
                List.of(name),
                sameSerde(keySerde, o.keySerde) ? keySerde : null,
                sameSerde(valueSerde, o.valueSerde) ? valueSerde : null,
                keyChanged || o.keyChanged);
    }

    /**
     * Whether two serdes write the same bytes, so a merge may keep one: equal ones (JsonSerde compares
     * type and mapper), or two instances of one of Kafka's built-in serdes, which hold no settings
     * (each {@code Serdes.String()} call makes a new one).
     */
    private static boolean sameSerde(@Nullable Serde<?> a, @Nullable Serde<?> b) {
        return Objects.equals(a, b)
                || (a != null
                        && b != null
                        && a.getClass() == b.getClass()
                        && a.getClass().getName().startsWith("org.apache.kafka.common.serialization.Serdes$"));
    }

    @Override
    public void to(String topic) {
        to(topic, Produced.inferred());
    }

    @Override
    public void to(String topic, Produced<K, V> produced) {
        Require.name("topic", topic);
        SinkPlan.wire(this, graph.sinkName(topic), "to(\"" + topic + "\")", (k, v) -> topic, produced, Set.of(topic));
    }

    @Override
    public void to(TopicNameExtractor<? super K, ? super V> topics, Produced<K, V> produced) {
        Objects.requireNonNull(topics, "topics");
        String name = graph.newName("sink-extracted");
        SinkPlan.wire(this, name, "to(TopicNameExtractor) '" + name + "'", topics, produced, Set.of());
    }

    @Override
    public void foreach(BiConsumer<? super K, ? super V> action) {
        sameTypes("foreach", null, StatelessSteps.foreach(action));
    }

    @Override
    public void foreach(BiConsumer<? super K, ? super V> action, Named named) {
        sameTypes("foreach", Objects.requireNonNull(named, "named"), StatelessSteps.foreach(action));
    }

    @Override
    public <K2> GroupedStream<K2, V> groupBy(BiFunction<? super K, ? super V, ? extends K2> keySelector) {
        return groupBy(keySelector, Grouped.with(null, null));
    }

    @Override
    public <K2> GroupedStream<K2, V> groupBy(
            BiFunction<? super K, ? super V, ? extends K2> keySelector, Grouped<K2, V> grouped) {
        Objects.requireNonNull(grouped, "grouped");
        Named named = grouped.name().map(n -> Named.as(n + "-select-key")).orElse(null);
        return this.<K2, V>newKeys("select-key", named, valueSerde, StatelessSteps.selectKey(keySelector))
                .groupByKey(grouped);
    }

    @Override
    public GroupedStream<K, V> groupByKey() {
        return groupByKey(Grouped.with(null, null));
    }

    @Override
    public GroupedStream<K, V> groupByKey(Grouped<K, V> grouped) {
        return GroupedStreamImpl.byKey(this, grouped);
    }

    @Override
    public <GK, GV, VR> EventStream<K, VR> join(
            GlobalTable<GK, GV> table,
            BiFunction<? super K, ? super V, ? extends @Nullable GK> keySelector,
            BiFunction<? super V, ? super GV, ? extends VR> joiner) {
        return GlobalTableJoinPlan.wire(this, table, keySelector, joiner, false, null);
    }

    @Override
    public <GK, GV, VR> EventStream<K, VR> join(
            GlobalTable<GK, GV> table,
            BiFunction<? super K, ? super V, ? extends @Nullable GK> keySelector,
            BiFunction<? super V, ? super GV, ? extends VR> joiner,
            Named named) {
        return GlobalTableJoinPlan.wire(
                this, table, keySelector, joiner, false, Objects.requireNonNull(named, "named"));
    }

    @Override
    public <GK, GV, VR> EventStream<K, VR> leftJoin(
            GlobalTable<GK, GV> table,
            BiFunction<? super K, ? super V, ? extends @Nullable GK> keySelector,
            BiFunction<? super V, ? super @Nullable GV, ? extends VR> joiner) {
        return GlobalTableJoinPlan.wire(this, table, keySelector, joiner, true, null);
    }

    @Override
    public <GK, GV, VR> EventStream<K, VR> leftJoin(
            GlobalTable<GK, GV> table,
            BiFunction<? super K, ? super V, ? extends @Nullable GK> keySelector,
            BiFunction<? super V, ? super @Nullable GV, ? extends VR> joiner,
            Named named) {
        return GlobalTableJoinPlan.wire(this, table, keySelector, joiner, true, Objects.requireNonNull(named, "named"));
    }

    @Override
    public <VO, VR> EventStream<K, VR> join(
            EventStream<K, VO> other, BiFunction<? super V, ? super VO, ? extends VR> joiner, JoinWindows windows) {
        return streamJoin(other, Joiners.nullable(joiner), windows, StreamJoined.defaults(), false, false);
    }

    @Override
    public <VO, VR> EventStream<K, VR> join(
            EventStream<K, VO> other,
            BiFunction<? super V, ? super VO, ? extends VR> joiner,
            JoinWindows windows,
            StreamJoined<K, V, VO> joined) {
        return streamJoin(other, Joiners.nullable(joiner), windows, joined, false, false);
    }

    @Override
    public <VO, VR> EventStream<K, VR> leftJoin(
            EventStream<K, VO> other,
            BiFunction<? super V, ? super @Nullable VO, ? extends VR> joiner,
            JoinWindows windows) {
        return streamJoin(other, Joiners.nullable(joiner), windows, StreamJoined.defaults(), true, false);
    }

    @Override
    public <VO, VR> EventStream<K, VR> leftJoin(
            EventStream<K, VO> other,
            BiFunction<? super V, ? super @Nullable VO, ? extends VR> joiner,
            JoinWindows windows,
            StreamJoined<K, V, VO> joined) {
        return streamJoin(other, Joiners.nullable(joiner), windows, joined, true, false);
    }

    @Override
    public <VO, VR> EventStream<K, VR> outerJoin(
            EventStream<K, VO> other,
            BiFunction<? super @Nullable V, ? super @Nullable VO, ? extends VR> joiner,
            JoinWindows windows) {
        return streamJoin(other, joiner, windows, StreamJoined.defaults(), true, true);
    }

    @Override
    public <VO, VR> EventStream<K, VR> outerJoin(
            EventStream<K, VO> other,
            BiFunction<? super @Nullable V, ? super @Nullable VO, ? extends VR> joiner,
            JoinWindows windows,
            StreamJoined<K, V, VO> joined) {
        return streamJoin(other, joiner, windows, joined, true, true);
    }

    private <VO, VR> EventStream<K, VR> streamJoin(
            EventStream<K, VO> other,
            BiFunction<? super @Nullable V, ? super @Nullable VO, ? extends VR> joiner,
            JoinWindows windows,
            StreamJoined<K, V, VO> joined,
            boolean leftOuter,
            boolean rightOuter) {
        return new StreamStreamJoinPlan<K, V, VO, VR>(this, other, joiner, windows, joined, leftOuter, rightOuter)
                .wire();
    }

    @Override
    public <TV, VR> EventStream<K, VR> join(
            Table<K, TV> table, BiFunction<? super V, ? super TV, ? extends VR> joiner) {
        return tableJoin(table, joiner, Joined.latest(), false);
    }

    @Override
    public <TV, VR> EventStream<K, VR> join(
            Table<K, TV> table, BiFunction<? super V, ? super TV, ? extends VR> joiner, Joined<K, V> joined) {
        return tableJoin(table, joiner, joined, false);
    }

    @Override
    public <TV, VR> EventStream<K, VR> leftJoin(
            Table<K, TV> table, BiFunction<? super V, ? super @Nullable TV, ? extends VR> joiner) {
        return tableJoin(table, joiner, Joined.latest(), true);
    }

    @Override
    public <TV, VR> EventStream<K, VR> leftJoin(
            Table<K, TV> table, BiFunction<? super V, ? super @Nullable TV, ? extends VR> joiner, Joined<K, V> joined) {
        return tableJoin(table, joiner, joined, true);
    }

    private <TV, VR> EventStream<K, VR> tableJoin(
            Table<K, TV> table,
            BiFunction<? super V, ? super TV, ? extends VR> joiner,
            Joined<K, V> joined,
            boolean left) {
        return new StreamTableJoinPlan<K, V, TV, VR>(this, table, joiner, joined, left).wire();
    }

    @Override
    public EventStream<K, V> deduplicate(Duration within) {
        if (keySerde == null) {
            throw new IllegalStateException("deduplicate(within) keeps the keys it has seen, and the stream's key "
                    + "serde is unknown (after selectKey or map); give it first with "
                    + "repartition(Repartitioned.with(keySerde, valueSerde))");
        }
        return DeduplicationPlan.wire(this, within, Deduplicated.with(keySerde), null);
    }

    @Override
    public <I> EventStream<K, V> deduplicate(
            BiFunction<? super K, ? super V, ? extends I> idSelector, Duration within, Deduplicated<I> deduplicated) {
        Objects.requireNonNull(idSelector, "idSelector");
        Objects.requireNonNull(deduplicated, "deduplicated");
        return DeduplicationPlan.wire(this, within, deduplicated, idSelector);
    }

    @Override
    public EventStream<K, V> repartition() {
        return repartition(Repartitioned.with(null, null));
    }

    @Override
    public EventStream<K, V> repartition(Repartitioned<K, V> repartitioned) {
        Objects.requireNonNull(repartitioned, "repartitioned");
        Serde<K> k = repartitioned.keySerde().orElse(keySerde);
        Serde<V> v = repartitioned.valueSerde().orElse(valueSerde);
        String base = repartitioned.name().orElseGet(() -> graph.newName("repartition"));
        if (k == null || v == null) {
            throw new IllegalStateException("repartition '" + base + "': the stream's " + (k == null ? "key" : "value")
                    + " serde is unknown; pass Repartitioned.with(keySerde, valueSerde)");
        }
        return through(base, k, v, repartitioned.numberOfPartitions().orElse(-1));
    }

    /**
     * This stream written to the repartition topic {@code <base>-repartition} (partitioned by key, with
     * {@code partitions} partitions, -1 for this stream's task count) and read back: the stream downstream.
     */
    EventStreamImpl<K, V> through(String base, Serde<K> k, Serde<V> v, int partitions) {
        String source = RepartitionTopics.through(graph, nodes, base, k, v, partitions);
        return new EventStreamImpl<>(graph, List.of(source), k, v, false);
    }
}
