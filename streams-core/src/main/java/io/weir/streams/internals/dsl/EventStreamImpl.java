package io.weir.streams.internals.dsl;

import io.weir.streams.KeyValue;
import io.weir.streams.dsl.Branches;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Deduplicated;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.GlobalTable;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.GroupedStream;
import io.weir.streams.dsl.JoinWindows;
import io.weir.streams.dsl.Joined;
import io.weir.streams.dsl.Named;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Repartitioned;
import io.weir.streams.dsl.StreamJoined;
import io.weir.streams.dsl.StreamPartitioner;
import io.weir.streams.dsl.Table;
import io.weir.streams.dsl.TopicNameExtractor;
import io.weir.streams.internals.Require;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.dedup.DeduplicateProcessor;
import io.weir.streams.internals.join.GlobalTableJoinProcessor;
import io.weir.streams.internals.join.StreamStreamJoinProcessor;
import io.weir.streams.internals.join.StreamTableJoinProcessor;
import io.weir.streams.internals.operator.BufferedRecordCodec;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.processor.RepartitionSinkProcessor;
import io.weir.streams.internals.processor.SinkProcessor;
import io.weir.streams.internals.processor.StatelessProcessor;
import io.weir.streams.internals.table.TableLookup;
import io.weir.streams.internals.topology.SourceNames;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.state.StoreType;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A stream in the graph: the node whose output it is, the serdes known for its keys and values (null
 * when an operator changed the type), and whether its key differs from the source's partitioning.
 */
public final class EventStreamImpl<K, V> implements EventStream<K, V> {

    /** The id of a record deduplicated by its key alone. */
    private static final byte[] NO_ID = new byte[0];

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

    private <K2, V2> EventStreamImpl<K2, V2> step(
            String kind,
            @Nullable Named named,
            StatelessProcessor.Step<K, V, K2, V2> step,
            @Nullable Serde<K2> newKeySerde,
            @Nullable Serde<V2> newValueSerde,
            boolean changesKey) {
        String name =
                graph.addNode(nameOf(named, kind), nodes, () -> new StatelessProcessor<>(step), Set.of(), Set.of());
        return new EventStreamImpl<>(graph, List.of(name), newKeySerde, newValueSerde, keyChanged || changesKey);
    }

    @Override
    public EventStream<K, V> filter(BiPredicate<? super K, ? super V> predicate) {
        return filterAs(predicate, null);
    }

    @Override
    public EventStream<K, V> filter(BiPredicate<? super K, ? super V> predicate, Named named) {
        return filterAs(predicate, Objects.requireNonNull(named, "named"));
    }

    private EventStream<K, V> filterAs(BiPredicate<? super K, ? super V> predicate, @Nullable Named named) {
        Objects.requireNonNull(predicate, "predicate");
        return step(
                "filter",
                named,
                (r, out) -> {
                    if (predicate.test(r.key(), r.value())) {
                        out.accept(r);
                    }
                },
                keySerde,
                valueSerde,
                false);
    }

    @Override
    public EventStream<K, V> filterNot(BiPredicate<? super K, ? super V> predicate) {
        return filterNotAs(predicate, null);
    }

    @Override
    public EventStream<K, V> filterNot(BiPredicate<? super K, ? super V> predicate, Named named) {
        return filterNotAs(predicate, Objects.requireNonNull(named, "named"));
    }

    private EventStream<K, V> filterNotAs(BiPredicate<? super K, ? super V> predicate, @Nullable Named named) {
        Objects.requireNonNull(predicate, "predicate");
        return step(
                "filter-not",
                named,
                (r, out) -> {
                    if (!predicate.test(r.key(), r.value())) {
                        out.accept(r);
                    }
                },
                keySerde,
                valueSerde,
                false);
    }

    @Override
    public <K2, V2> EventStream<K2, V2> map(BiFunction<? super K, ? super V, KeyValue<K2, V2>> mapper) {
        return mapAs(mapper, null);
    }

    @Override
    public <K2, V2> EventStream<K2, V2> map(BiFunction<? super K, ? super V, KeyValue<K2, V2>> mapper, Named named) {
        return mapAs(mapper, Objects.requireNonNull(named, "named"));
    }

    private <K2, V2> EventStream<K2, V2> mapAs(
            BiFunction<? super K, ? super V, KeyValue<K2, V2>> mapper, @Nullable Named named) {
        Objects.requireNonNull(mapper, "mapper");
        return step(
                "map",
                named,
                (r, out) -> {
                    KeyValue<K2, V2> kv = mapper.apply(r.key(), r.value());
                    out.accept(r.with(kv.key(), kv.value()));
                },
                null,
                null,
                true);
    }

    @Override
    public <V2> EventStream<K, V2> mapValues(Function<? super V, ? extends V2> mapper) {
        return mapValuesAs(mapper, null);
    }

    @Override
    public <V2> EventStream<K, V2> mapValues(Function<? super V, ? extends V2> mapper, Named named) {
        return mapValuesAs(mapper, Objects.requireNonNull(named, "named"));
    }

    private <V2> EventStream<K, V2> mapValuesAs(Function<? super V, ? extends V2> mapper, @Nullable Named named) {
        Objects.requireNonNull(mapper, "mapper");
        return step(
                "map-values",
                named,
                (Record<K, V> r, Consumer<Record<K, V2>> out) -> out.accept(r.withValue(mapper.apply(r.value()))),
                keySerde,
                null,
                false);
    }

    @Override
    public <K2, V2> EventStream<K2, V2> flatMap(
            BiFunction<? super K, ? super V, ? extends Iterable<KeyValue<K2, V2>>> mapper) {
        return flatMapAs(mapper, null);
    }

    @Override
    public <K2, V2> EventStream<K2, V2> flatMap(
            BiFunction<? super K, ? super V, ? extends Iterable<KeyValue<K2, V2>>> mapper, Named named) {
        return flatMapAs(mapper, Objects.requireNonNull(named, "named"));
    }

    private <K2, V2> EventStream<K2, V2> flatMapAs(
            BiFunction<? super K, ? super V, ? extends Iterable<KeyValue<K2, V2>>> mapper, @Nullable Named named) {
        Objects.requireNonNull(mapper, "mapper");
        return step(
                "flat-map",
                named,
                (r, out) -> {
                    for (KeyValue<K2, V2> kv : mapper.apply(r.key(), r.value())) {
                        out.accept(r.with(kv.key(), kv.value()));
                    }
                },
                null,
                null,
                true);
    }

    @Override
    public <V2> EventStream<K, V2> flatMapValues(Function<? super V, ? extends Iterable<? extends V2>> mapper) {
        return flatMapValuesAs(mapper, null);
    }

    @Override
    public <V2> EventStream<K, V2> flatMapValues(
            Function<? super V, ? extends Iterable<? extends V2>> mapper, Named named) {
        return flatMapValuesAs(mapper, Objects.requireNonNull(named, "named"));
    }

    private <V2> EventStream<K, V2> flatMapValuesAs(
            Function<? super V, ? extends Iterable<? extends V2>> mapper, @Nullable Named named) {
        Objects.requireNonNull(mapper, "mapper");
        return step(
                "flat-map-values",
                named,
                (Record<K, V> r, Consumer<Record<K, V2>> out) -> {
                    for (V2 v : mapper.apply(r.value())) {
                        out.accept(r.withValue(v));
                    }
                },
                keySerde,
                null,
                false);
    }

    @Override
    public EventStream<K, V> peek(BiConsumer<? super K, ? super V> action) {
        return peekAs(action, null);
    }

    @Override
    public EventStream<K, V> peek(BiConsumer<? super K, ? super V> action, Named named) {
        return peekAs(action, Objects.requireNonNull(named, "named"));
    }

    private EventStream<K, V> peekAs(BiConsumer<? super K, ? super V> action, @Nullable Named named) {
        Objects.requireNonNull(action, "action");
        return step(
                "peek",
                named,
                (r, out) -> {
                    action.accept(r.key(), r.value());
                    out.accept(r);
                },
                keySerde,
                valueSerde,
                false);
    }

    @Override
    public <K2> EventStream<K2, V> selectKey(BiFunction<? super K, ? super V, ? extends K2> keyMapper) {
        return selectKeyAs(keyMapper, null);
    }

    @Override
    public <K2> EventStream<K2, V> selectKey(BiFunction<? super K, ? super V, ? extends K2> keyMapper, Named named) {
        return selectKeyAs(keyMapper, Objects.requireNonNull(named, "named"));
    }

    private <K2> EventStream<K2, V> selectKeyAs(
            BiFunction<? super K, ? super V, ? extends K2> keyMapper, @Nullable Named named) {
        Objects.requireNonNull(keyMapper, "keyMapper");
        return step(
                "select-key",
                named,
                (Record<K, V> r, Consumer<Record<K2, V>> out) ->
                        out.accept(r.withKey(keyMapper.apply(r.key(), r.value()))),
                null,
                valueSerde,
                true);
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
        sink(graph.sinkName(topic), "to(\"" + topic + "\")", (k, v) -> topic, produced, Set.of(topic));
    }

    @Override
    public void to(TopicNameExtractor<? super K, ? super V> topics, Produced<K, V> produced) {
        Objects.requireNonNull(topics, "topics");
        String name = graph.newName("sink-extracted");
        sink(name, "to(TopicNameExtractor) '" + name + "'", topics, produced, Set.of());
    }

    private void sink(
            String name,
            String what,
            TopicNameExtractor<? super K, ? super V> topics,
            Produced<K, V> produced,
            Set<String> outputTopics) {
        Serde<K> k = produced.keySerde().orElse(keySerde);
        Serde<V> v = produced.valueSerde().orElse(valueSerde);
        if (k == null || v == null) {
            throw new IllegalStateException(what + ": the stream's " + (k == null ? "key" : "value")
                    + " serde is unknown (after a map, or a merge of streams with different serdes); "
                    + "pass Produced.with(keySerde, valueSerde)");
        }
        graph.useSerde(k, true);
        graph.useSerde(v, false);
        StreamPartitioner<? super K, ? super V> partitioner =
                produced.partitioner().orElse(null);
        graph.addNode(
                name,
                nodes,
                () -> new SinkProcessor<>(topics, k.serializer(), v.serializer(), produced.errorHandler(), partitioner),
                Set.of(),
                outputTopics);
    }

    @Override
    public void foreach(BiConsumer<? super K, ? super V> action) {
        foreachAs(action, null);
    }

    @Override
    public void foreach(BiConsumer<? super K, ? super V> action, Named named) {
        foreachAs(action, Objects.requireNonNull(named, "named"));
    }

    private void foreachAs(BiConsumer<? super K, ? super V> action, @Nullable Named named) {
        Objects.requireNonNull(action, "action");
        step(
                "foreach",
                named,
                (Record<K, V> r, Consumer<Record<K, V>> out) -> action.accept(r.key(), r.value()),
                keySerde,
                valueSerde,
                false);
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
        return this.<K2>selectKeyAs(keySelector, named).groupByKey(grouped);
    }

    @Override
    public GroupedStream<K, V> groupByKey() {
        return groupByKey(Grouped.with(null, null));
    }

    @Override
    public GroupedStream<K, V> groupByKey(Grouped<K, V> grouped) {
        Objects.requireNonNull(grouped, "grouped");
        Serde<K> k = grouped.keySerde().orElse(keySerde);
        Serde<V> v = grouped.valueSerde().orElse(valueSerde);
        if (!keyChanged) {
            if (grouped.numberOfPartitions().isPresent()) {
                throw new IllegalStateException(
                        "groupByKey(" + grouped.name().orElse("") + "): the key was not "
                                + "changed, so there is no repartition topic to give "
                                + grouped.numberOfPartitions().getAsInt()
                                + " partitions; repartition(Repartitioned.with(keySerde, valueSerde).withNumberOfPartitions(n)) first");
            }
            return new GroupedStreamImpl<>(new EventStreamImpl<>(graph, nodes, k, v, false));
        }
        String base = grouped.name().orElseGet(() -> graph.newName("group"));
        if (k == null || v == null) {
            throw new IllegalStateException("groupByKey() '" + base + "': the key was changed, so records are "
                    + "repartitioned through a topic, and the stream's " + (k == null ? "key" : "value")
                    + " serde is unknown; pass Grouped.with(keySerde, valueSerde)");
        }
        return new GroupedStreamImpl<>(
                through(base, k, v, grouped.numberOfPartitions().orElse(-1)));
    }

    @Override
    public <GK, GV, VR> EventStream<K, VR> join(
            GlobalTable<GK, GV> table,
            BiFunction<? super K, ? super V, ? extends @Nullable GK> keySelector,
            BiFunction<? super V, ? super GV, ? extends VR> joiner) {
        return globalJoin(table, keySelector, joiner, false, null);
    }

    @Override
    public <GK, GV, VR> EventStream<K, VR> join(
            GlobalTable<GK, GV> table,
            BiFunction<? super K, ? super V, ? extends @Nullable GK> keySelector,
            BiFunction<? super V, ? super GV, ? extends VR> joiner,
            Named named) {
        return globalJoin(table, keySelector, joiner, false, Objects.requireNonNull(named, "named"));
    }

    @Override
    public <GK, GV, VR> EventStream<K, VR> leftJoin(
            GlobalTable<GK, GV> table,
            BiFunction<? super K, ? super V, ? extends @Nullable GK> keySelector,
            BiFunction<? super V, ? super @Nullable GV, ? extends VR> joiner) {
        return globalJoin(table, keySelector, joiner, true, null);
    }

    @Override
    public <GK, GV, VR> EventStream<K, VR> leftJoin(
            GlobalTable<GK, GV> table,
            BiFunction<? super K, ? super V, ? extends @Nullable GK> keySelector,
            BiFunction<? super V, ? super @Nullable GV, ? extends VR> joiner,
            Named named) {
        return globalJoin(table, keySelector, joiner, true, Objects.requireNonNull(named, "named"));
    }

    /** A join with a global table: no repartition, the key kept, the value serde unknown. */
    private <GK, GV, VR> EventStream<K, VR> globalJoin(
            GlobalTable<GK, GV> table,
            BiFunction<? super K, ? super V, ? extends @Nullable GK> keySelector,
            BiFunction<? super V, ? super GV, ? extends VR> joiner,
            boolean left,
            @Nullable Named named) {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(keySelector, "keySelector");
        Objects.requireNonNull(joiner, "joiner");
        String store = GlobalTableImpl.storeOf(table, graph);
        String name = graph.addNode(
                nameOf(named, left ? "global-left-join" : "global-join"),
                nodes,
                () -> new GlobalTableJoinProcessor<K, V, GK, GV, VR>(store, keySelector, joiner, left),
                Set.of(),
                Set.of());
        return new EventStreamImpl<>(graph, List.of(name), keySerde, null, keyChanged);
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

    /** A windowed join with {@code other}: one node per side, sharing both sides' buffers; see {@link StreamStreamJoinProcessor}. */
    private <VO, VR> EventStream<K, VR> streamJoin(
            EventStream<K, VO> other,
            BiFunction<? super @Nullable V, ? super @Nullable VO, ? extends VR> joiner,
            JoinWindows windows,
            StreamJoined<K, V, VO> joined,
            boolean leftOuter,
            boolean rightOuter) {
        Objects.requireNonNull(other, "other");
        Objects.requireNonNull(joiner, "joiner");
        Objects.requireNonNull(windows, "windows");
        Objects.requireNonNull(joined, "joined");
        EventStreamImpl<K, VO> o = (EventStreamImpl<K, VO>) other;
        if (o.graph != graph) {
            throw new IllegalArgumentException("join: the other stream belongs to another StreamsBuilder; build "
                    + "both streams with the same builder");
        }
        String kind = rightOuter ? "outer-join" : leftOuter ? "left-join" : "join";
        String name = joined.name().orElseGet(() -> graph.newName(kind));
        Serde<K> k = joined.keySerde().orElse(keySerde != null ? keySerde : o.keySerde);
        Serde<V> v = joined.valueSerde().orElse(valueSerde);
        Serde<VO> vo = joined.otherValueSerde().orElse(o.valueSerde);
        if (k == null || v == null || vo == null) {
            String which = k == null ? "key" : v == null ? "left stream's value" : "right stream's value";
            throw new IllegalStateException(kind + " '" + name + "': both streams are buffered in stores, and the "
                    + which + " serde is unknown; give it with StreamJoined.with(keySerde, valueSerde, "
                    + "otherValueSerde)");
        }
        EventStreamImpl<K, V> leftInput = keyChanged ? through(name + "-left", k, v, -1) : this;
        EventStreamImpl<K, VO> rightInput = o.keyChanged ? o.through(name + "-right", k, vo, -1) : o;
        String leftStore = name + "-left";
        String rightStore = name + "-right";
        long before = TimeMath.millis(windows.before());
        long after = TimeMath.millis(windows.after());
        long lateness = TimeMath.millis(windows.allowedLateness());
        String leftUnmatched = leftOuter ? leftStore + "-unmatched" : null;
        String rightUnmatched = rightOuter ? rightStore + "-unmatched" : null;
        long bufferRetention = StreamStreamJoinProcessor.bufferChangelogRetention(before, after, lateness);
        List<String> buffers = List.of(leftStore, rightStore);
        Set<String> stores = new LinkedHashSet<>(buffers);
        if (leftUnmatched != null) {
            stores.add(leftUnmatched);
        }
        if (rightUnmatched != null) {
            stores.add(rightUnmatched);
        }
        for (String store : stores) {
            graph.addStore(
                    new StoreSpec(store, joined.storeType(), true, buffers.contains(store) ? bufferRetention : -1));
        }
        graph.useSerde(k, true);
        graph.useSerde(v, false);
        graph.useSerde(vo, false);
        String lateTopic = joined.lateTopic().orElse(null);
        BufferedRecordCodec<K, V> leftCodec = new BufferedRecordCodec<>(leftStore, k, v);
        BufferedRecordCodec<K, VO> rightCodec = new BufferedRecordCodec<>(rightStore, k, vo);
        StreamStreamJoinProcessor.Side<K, V, VO, VR> leftSide = new StreamStreamJoinProcessor.Side<>(
                leftStore,
                leftUnmatched,
                rightStore,
                before,
                after,
                lateness,
                leftOuter,
                rightOuter,
                k,
                leftCodec,
                rightCodec,
                joiner,
                lateTopic);
        StreamStreamJoinProcessor.Side<K, VO, V, VR> rightSide = new StreamStreamJoinProcessor.Side<>(
                rightStore,
                rightUnmatched,
                leftStore,
                after,
                before,
                lateness,
                rightOuter,
                leftOuter,
                k,
                rightCodec,
                leftCodec,
                (r, l) -> joiner.apply(l, r),
                lateTopic);
        Set<String> outputs = lateTopic == null ? Set.of() : Set.of(lateTopic);
        String leftNode = graph.addNode(
                name + "-left", leftInput.nodes, () -> new StreamStreamJoinProcessor<>(leftSide), stores, outputs);
        String rightNode = graph.addNode(
                name + "-right", rightInput.nodes, () -> new StreamStreamJoinProcessor<>(rightSide), stores, outputs);
        return new EventStreamImpl<>(graph, List.of(leftNode, rightNode), k, null, false);
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

    /** A join with a table of this builder, in the task of the table's store; see {@link StreamTableJoinProcessor}. */
    private <TV, VR> EventStream<K, VR> tableJoin(
            Table<K, TV> table,
            BiFunction<? super V, ? super TV, ? extends VR> joiner,
            Joined<K, V> joined,
            boolean left) {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(joiner, "joiner");
        Objects.requireNonNull(joined, "joined");
        TableImpl<K, TV> t = (TableImpl<K, TV>) table;
        if (t.graph != graph) {
            throw new IllegalArgumentException("join: the table belongs to another StreamsBuilder; build the stream "
                    + "and the table with the same builder");
        }
        String name = joined.name().orElseGet(() -> graph.newName(left ? "table-left-join" : "table-join"));
        TableLookup<K, TV> lookup = t.lookup;
        Joined.Mode mode = joined.mode();
        if (mode != Joined.Mode.LATEST && lookup.history() == null) {
            throw new IllegalStateException("join '" + name + "' (" + mode + "): joining as of a record's event time "
                    + "needs the table's versions; read the table versioned (Materialized.versioned(retention)) "
                    + "or join with Joined.latest()");
        }
        if (mode != Joined.Mode.ALIGNED && joined.storeType() != StoreType.ROCKSDB) {
            throw new IllegalStateException("join '" + name + "' (" + mode + "): inMemory() places the aligned "
                    + "join's buffer, and this join holds no records; remove it or use Joined.aligned()");
        }
        if (mode == Joined.Mode.LATEST && joined.lateTopic().isPresent()) {
            throw new IllegalStateException("join '" + name + "' (LATEST): withLateRecordsTo is for records older "
                    + "than a versioned table's history, and the latest row refuses none; remove it or join "
                    + "Joined.asOf() or Joined.aligned()");
        }
        Serde<K> k = joined.keySerde().orElse(keySerde != null ? keySerde : lookup.keySerde());
        Serde<V> v = joined.valueSerde().orElse(valueSerde);
        EventStreamImpl<K, V> input = this;
        if (keyChanged) {
            if (v == null) {
                throw new IllegalStateException("join '" + name + "': the key was changed, so records are "
                        + "repartitioned by key first, and the stream's value serde is unknown; give it with "
                        + "Joined.withValueSerde(...)");
            }
            input = through(name, k, v, -1);
        }
        Set<String> stores = new HashSet<>(lookup.stores());
        String bufferStore = null;
        BufferedRecordCodec<K, V> codec = null;
        if (mode == Joined.Mode.ALIGNED) {
            if (v == null) {
                throw new IllegalStateException("join '" + name + "' (ALIGNED): records wait in a store until the "
                        + "table's watermark reaches them, and the stream's value serde is unknown; give it with "
                        + "Joined.withValueSerde(...)");
            }
            bufferStore = name + "-buffer";
            graph.addStore(new StoreSpec(bufferStore, joined.storeType(), true, -1));
            graph.useSerde(k, true);
            graph.useSerde(v, false);
            stores.add(bufferStore);
            codec = new BufferedRecordCodec<>(bufferStore, k, v);
        }
        StreamTableJoinProcessor.Settings<K, V, TV, VR> settings = new StreamTableJoinProcessor.Settings<>(
                mode,
                left,
                lookup,
                joiner,
                bufferStore,
                codec,
                joined.lateTopic().orElse(null));
        String node = graph.addNode(
                name,
                input.nodes,
                () -> new StreamTableJoinProcessor<>(settings),
                stores,
                joined.lateTopic().map(Set::of).orElse(Set.of()));
        return new EventStreamImpl<>(graph, List.of(node), k, null, false);
    }

    @Override
    public EventStream<K, V> deduplicate(Duration within) {
        if (keySerde == null) {
            throw new IllegalStateException("deduplicate(within) keeps the keys it has seen, and the stream's key "
                    + "serde is unknown (after selectKey or map); give it first with "
                    + "repartition(Repartitioned.with(keySerde, valueSerde))");
        }
        return dedup(within, Deduplicated.with(keySerde), null);
    }

    @Override
    public <I> EventStream<K, V> deduplicate(
            BiFunction<? super K, ? super V, ? extends I> idSelector, Duration within, Deduplicated<I> deduplicated) {
        Objects.requireNonNull(idSelector, "idSelector");
        Objects.requireNonNull(deduplicated, "deduplicated");
        return dedup(within, deduplicated, idSelector);
    }

    /** A deduplication by key and {@code idSelector}'s id, or by key alone when it is null. */
    private <I> EventStream<K, V> dedup(
            Duration within,
            Deduplicated<I> deduplicated,
            @Nullable BiFunction<? super K, ? super V, ? extends I> idSelector) {
        long interval = TimeMath.millis(Require.positive("within", within));
        String name = deduplicated.name().orElseGet(() -> graph.newName("dedup"));
        Serializer<I> idSerializer = deduplicated.idSerde().serializer();
        BiFunction<? super K, ? super V, byte @Nullable []> ids = idSelector == null
                ? (key, value) -> NO_ID
                : (key, value) -> {
                    I id = idSelector.apply(key, value);
                    return id == null ? null : idSerializer.serialize(name, id);
                };
        if (keySerde == null) {
            throw new IllegalStateException("deduplicate '" + name + "': the stream's key serde is unknown (after "
                    + "selectKey or map), and the records that passed are kept by key; give it first with "
                    + "repartition(Repartitioned.with(keySerde, valueSerde))");
        }
        EventStreamImpl<K, V> input = this;
        if (keyChanged) {
            if (valueSerde == null) {
                throw new IllegalStateException("deduplicate '" + name + "': the key was changed, so records are "
                        + "repartitioned by key first, and the stream's value serde is unknown; repartition it "
                        + "with Repartitioned.with(keySerde, valueSerde) first");
            }
            input = through(name, keySerde, valueSerde, -1);
        }
        graph.useSerde(keySerde, true);
        graph.useSerde(deduplicated.idSerde(), true);
        String expiryStore = name + "-expiry";
        graph.addStore(new StoreSpec(name, deduplicated.storeType(), true, -1));
        graph.addStore(new StoreSpec(expiryStore, deduplicated.storeType(), true, -1));
        DeduplicateProcessor.Settings<K, V> settings = new DeduplicateProcessor.Settings<>(
                name,
                expiryStore,
                interval,
                TimeMath.millis(deduplicated.allowedLateness()),
                deduplicated.lateTopic().orElse(null),
                keySerde.serializer(),
                ids);
        String node = graph.addNode(
                name,
                input.nodes,
                () -> new DeduplicateProcessor<>(settings),
                Set.of(name, expiryStore),
                deduplicated.lateTopic().map(Set::of).orElse(Set.of()));
        return new EventStreamImpl<>(graph, List.of(node), keySerde, valueSerde, false);
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
        String topic = repartitionSink(base, k, v, true);
        String source = graph.addRepartitionSource(topic, Consumed.with(k, v), partitions);
        return new EventStreamImpl<>(graph, List.of(source), k, v, false);
    }

    /**
     * This stream of a join's messages about table rows written to the repartition topic {@code
     * <base>-repartition}, without watermark marks, for a reader that leaves it out of its watermark; its
     * reading source is named {@link #throughSourceName}, for a reader added before it.
     */
    void throughTableMessages(String base, Serde<K> k, Serde<V> v) {
        graph.addTableMessageSource(repartitionSink(base, k, v, false), Consumed.with(k, v));
    }

    /** Writes this stream to the repartition topic {@code <base>-repartition}, with watermark marks or not; returns the topic. */
    private String repartitionSink(String base, Serde<K> k, Serde<V> v, boolean marks) {
        String topic = base + "-repartition";
        graph.addNode(
                base + "-repartition-sink",
                nodes,
                () -> new RepartitionSinkProcessor<>(topic, k.serializer(), v.serializer(), marks),
                Set.of(),
                Set.of(topic));
        return topic;
    }

    /** The name of the source reading the repartition topic of {@code base}. */
    static String throughSourceName(String base) {
        return SourceNames.of(base + "-repartition");
    }
}
