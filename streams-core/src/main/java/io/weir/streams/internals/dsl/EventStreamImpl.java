package io.weir.streams.internals.dsl;

import io.weir.streams.KeyValue;
import io.weir.streams.dsl.Branches;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.GroupedStream;
import io.weir.streams.dsl.Produced;
import io.weir.streams.internals.Require;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.processor.RepartitionSinkProcessor;
import io.weir.streams.internals.processor.SinkProcessor;
import io.weir.streams.internals.processor.StatelessProcessor;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
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

    private <K2, V2> EventStreamImpl<K2, V2> step(
            String kind,
            StatelessProcessor.Step<K, V, K2, V2> step,
            @Nullable Serde<K2> newKeySerde,
            @Nullable Serde<V2> newValueSerde,
            boolean changesKey) {
        String name =
                graph.addNode(graph.newName(kind), nodes, () -> new StatelessProcessor<>(step), Set.of(), Set.of());
        return new EventStreamImpl<>(graph, List.of(name), newKeySerde, newValueSerde, keyChanged || changesKey);
    }

    @Override
    public EventStream<K, V> filter(BiPredicate<? super K, ? super V> predicate) {
        Objects.requireNonNull(predicate, "predicate");
        return step(
                "filter",
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
        Objects.requireNonNull(predicate, "predicate");
        return step(
                "filter-not",
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
        Objects.requireNonNull(mapper, "mapper");
        return step(
                "map",
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
        Objects.requireNonNull(mapper, "mapper");
        return step(
                "map-values",
                (Record<K, V> r, Consumer<Record<K, V2>> out) -> out.accept(r.withValue(mapper.apply(r.value()))),
                keySerde,
                null,
                false);
    }

    @Override
    public <K2, V2> EventStream<K2, V2> flatMap(
            BiFunction<? super K, ? super V, ? extends Iterable<KeyValue<K2, V2>>> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return step(
                "flat-map",
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
        Objects.requireNonNull(mapper, "mapper");
        return step(
                "flat-map-values",
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
        Objects.requireNonNull(action, "action");
        return step(
                "peek",
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
        Objects.requireNonNull(keyMapper, "keyMapper");
        return step(
                "select-key",
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
        EventStreamImpl<K, V> o = (EventStreamImpl<K, V>) Objects.requireNonNull(other, "other");
        if (o.graph != graph) {
            throw new IllegalArgumentException("merge: the other stream belongs to another StreamsBuilder");
        }
        List<String> parents = new ArrayList<>(nodes);
        parents.addAll(o.nodes);
        String name = graph.addNode(
                graph.newName("merge"),
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
        Serde<K> k = produced.keySerde().orElse(keySerde);
        Serde<V> v = produced.valueSerde().orElse(valueSerde);
        if (k == null || v == null) {
            throw new IllegalStateException("to(\"" + topic + "\"): the stream's " + (k == null ? "key" : "value")
                    + " serde is unknown (after a map, or a merge of streams with different serdes); "
                    + "pass Produced.with(keySerde, valueSerde)");
        }
        graph.addNode(
                graph.sinkName(topic),
                nodes,
                () -> new SinkProcessor<>(topic, k.serializer(), v.serializer(), produced.errorHandler()),
                Set.of(),
                Set.of(topic));
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
            return new GroupedStreamImpl<>(new EventStreamImpl<>(graph, nodes, k, v, false));
        }
        String base = grouped.name().orElseGet(() -> graph.newName("group"));
        if (k == null || v == null) {
            throw new IllegalStateException("groupByKey() '" + base + "': the key was changed, so records are "
                    + "repartitioned through a topic, and the stream's " + (k == null ? "key" : "value")
                    + " serde is unknown; pass Grouped.with(keySerde, valueSerde)");
        }
        String topic = base + "-repartition";
        graph.addNode(
                base + "-repartition-sink",
                nodes,
                () -> new RepartitionSinkProcessor<>(topic, k.serializer(), v.serializer()),
                Set.of(),
                Set.of(topic));
        String source = graph.addRepartitionSource(topic, Consumed.with(k, v));
        return new GroupedStreamImpl<>(new EventStreamImpl<>(graph, List.of(source), k, v, false));
    }
}
