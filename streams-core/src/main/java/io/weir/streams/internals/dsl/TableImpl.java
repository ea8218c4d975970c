package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.GroupedTable;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Named;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.dsl.Table;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.processor.StatelessProcessor;
import io.weir.streams.internals.table.Change;
import io.weir.streams.internals.table.ChangeSerde;
import io.weir.streams.internals.table.TableLookup;
import io.weir.streams.internals.table.TableMaterializeProcessor;
import io.weir.streams.internals.table.TableSourceProcessor;
import io.weir.streams.internals.table.TableToStreamProcessor;
import io.weir.streams.internals.table.TableVersions;
import io.weir.streams.internals.table.TimeToLive;
import io.weir.streams.internals.topology.KeyValueView;
import io.weir.streams.internals.topology.SourceSpec;
import io.weir.streams.internals.topology.StoreSpec;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A table in the graph: the node whose output is its changes ({@code Record<K, Change<V>>}), the serdes
 * known for its keys and values (null when an operator changed the type), and how a join reads its rows
 * ({@link TableLookup}: the store it derives from, seen through the stateless steps in between).
 *
 * <p>An operator's public overloads only delegate to its one path: a private method that takes the
 * operator's name, or null for a generated one, or the plan of a join ({@link TableTableJoinPlan},
 * {@link ForeignKeyJoinPlan}), which reads this table's fields.
 */
public final class TableImpl<K, V> implements Table<K, V> {

    final GraphBuilder graph;
    final List<String> nodes;
    final @Nullable Serde<K> keySerde;
    final @Nullable Serde<V> valueSerde;
    final TableLookup<K, V> lookup;

    TableImpl(
            GraphBuilder graph,
            List<String> nodes,
            @Nullable Serde<K> keySerde,
            @Nullable Serde<V> valueSerde,
            TableLookup<K, V> lookup) {
        this.graph = graph;
        this.nodes = nodes;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.lookup = lookup;
    }

    /** The table read from {@code source}'s topic, materialized in a store whose changelog is that topic. */
    public static <K, V> TableImpl<K, V> source(
            GraphBuilder graph, SourceSpec source, Materialized<K, V> materialized) {
        @SuppressWarnings("unchecked")
        Consumed<K, V> consumed = (Consumed<K, V>) source.consumed();
        String storeName = materialized.storeName().orElseGet(() -> source.topic() + "-table");
        String operator = "table '" + source.topic() + "' in store '" + storeName + "'";
        if (materialized.keySerde().isPresent() || materialized.valueSerde().isPresent()) {
            throw new IllegalStateException(operator + ": the store holds the topic's records as they are, so its "
                    + "serdes are the ones Consumed gives; remove them from Materialized");
        }
        if (materialized.retention().isPresent()) {
            throw new IllegalStateException(operator + ": withRetention is for keyed processors' window stores; "
                    + "a table keeps each key until it is deleted");
        }
        boolean versioned = materialized.historyRetention().isPresent();
        if (versioned && materialized.timeToLive().isPresent()) {
            throw new IllegalStateException(
                    operator + ": a versioned table keeps its history for its retention; " + "give it no time-to-live");
        }
        // Rows a time-to-live deletes stay in the topic, and history is what compaction removes: such
        // stores need a changelog of their own.
        boolean ownChangelog = materialized.timeToLive().isPresent() || versioned;
        boolean logged = materialized.loggingEnabled();
        graph.addStore(new StoreSpec(storeName, materialized.storeType(), logged, -1, ownChangelog ? null : source)
                .queryableAs(KeyValueView.tableRows(storeName, consumed.keySerde(), consumed.valueSerde())));
        TimeToLive ttl = TableAggregates.timeToLive(graph, storeName, materialized);
        Set<String> stores = new HashSet<>(TableAggregates.stores(storeName, ttl));
        TableSourceProcessor.Versioning versioning = null;
        if (versioned) {
            versioning = new TableSourceProcessor.Versioning(
                    TimeMath.millis(materialized.historyRetention().get()),
                    TableVersions.historyStoreOf(storeName),
                    TableVersions.expiryStoreOf(storeName),
                    source.nodeName());
            graph.addStore(new StoreSpec(versioning.historyStore(), materialized.storeType(), logged, -1));
            graph.addStore(new StoreSpec(versioning.expiryStore(), materialized.storeType(), logged, -1));
            stores.add(versioning.historyStore());
            stores.add(versioning.expiryStore());
        }
        TableSourceProcessor.Versioning versions = versioning;
        boolean everyChange = materialized.emitsEveryChange();
        String node = graph.addNode(
                storeName,
                List.of(source.nodeName()),
                () -> new TableSourceProcessor<>(storeName, consumed, everyChange, ttl, versions),
                stores,
                Set.of());
        TableLookup.History history = versions == null
                ? null
                : new TableLookup.History(versions.historyStore(), versions.historyRetention(), source.nodeName());
        return new TableImpl<>(
                graph,
                List.of(node),
                consumed.keySerde(),
                consumed.valueSerde(),
                TableLookup.of(storeName, history, ttl, consumed.keySerde(), consumed.valueSerde()));
    }

    /** Adds a stateless step over the table's changes, as the operator {@code named}, or a generated {@code <kind>-<n>}. */
    private <K2, V2> String step(
            String kind, @Nullable Named named, StatelessProcessor.Step<K, Change<V>, K2, V2> step) {
        String name = named != null ? named.name() : graph.newName(kind);
        return graph.addNode(name, nodes, () -> new StatelessProcessor<>(step), Set.of(), Set.of());
    }

    @Override
    public Table<K, V> filter(BiPredicate<? super K, ? super V> predicate) {
        return filterAs(predicate, true, null);
    }

    @Override
    public Table<K, V> filter(BiPredicate<? super K, ? super V> predicate, Named named) {
        return filterAs(predicate, true, Objects.requireNonNull(named, "named"));
    }

    @Override
    public Table<K, V> filter(BiPredicate<? super K, ? super V> predicate, Materialized<K, V> materialized) {
        return filterAs(predicate, true, null).materialize("filter", materialized, valueSerde);
    }

    @Override
    public Table<K, V> filterNot(BiPredicate<? super K, ? super V> predicate) {
        return filterAs(predicate, false, null);
    }

    @Override
    public Table<K, V> filterNot(BiPredicate<? super K, ? super V> predicate, Named named) {
        return filterAs(predicate, false, Objects.requireNonNull(named, "named"));
    }

    @Override
    public Table<K, V> filterNot(BiPredicate<? super K, ? super V> predicate, Materialized<K, V> materialized) {
        return filterAs(predicate, false, null).materialize("filter-not", materialized, valueSerde);
    }

    /**
     * {@code filter} when {@code keep}, {@code filterNot} otherwise: a row that fails is a delete, and a
     * change passes on as much of it as passes.
     */
    private TableImpl<K, V> filterAs(BiPredicate<? super K, ? super V> predicate, boolean keep, @Nullable Named named) {
        Objects.requireNonNull(predicate, "predicate");
        String node = this.<K, Change<V>>step(keep ? "table-filter" : "table-filter-not", named, (r, out) -> {
            Change<V> c = r.value();
            V old = c.oldValue() != null && predicate.test(r.key(), c.oldValue()) == keep ? c.oldValue() : null;
            V neu = c.newValue() != null && predicate.test(r.key(), c.newValue()) == keep ? c.newValue() : null;
            if (old != null || neu != null) {
                out.accept(r.withValue(new Change<>(old, neu)));
            }
        });
        return new TableImpl<>(
                graph,
                List.of(node),
                keySerde,
                valueSerde,
                lookup.derive((k, v) -> predicate.test(k, v) == keep ? v : null));
    }

    @Override
    public <V2> Table<K, V2> mapValues(Function<? super V, ? extends V2> mapper, Materialized<K, V2> materialized) {
        return this.<V2>mapValuesAs(mapper, null).materialize("map-values", materialized, null);
    }

    /**
     * This derived table kept in the store {@code materialized} names, with a changelog of its own;
     * {@code derivedValueSerde} is its value serde unless {@code materialized} gives one.
     */
    private TableImpl<K, V> materialize(
            String kind, Materialized<K, V> materialized, @Nullable Serde<V> derivedValueSerde) {
        Objects.requireNonNull(materialized, "materialized");
        String storeName = materialized.storeName().orElseGet(() -> graph.newName("table-" + kind));
        String operator = kind + " into store '" + storeName + "'";
        Serde<K> k = materialized.keySerde().orElse(keySerde);
        Serde<V> v = materialized.valueSerde().orElse(derivedValueSerde);
        if (k == null || v == null) {
            throw new IllegalStateException(operator + ": the " + (k == null ? "key" : "value") + " serde is unknown; "
                    + "give it with Materialized.with" + (k == null ? "Key" : "Value") + "Serde(...)");
        }
        if (materialized.retention().isPresent()
                || materialized.historyRetention().isPresent()) {
            throw new IllegalStateException(operator + ": withRetention and versioned are not for a derived table; "
                    + "version the table read from the topic instead");
        }
        graph.useSerde(k, true);
        graph.useSerde(v, false);
        graph.addStore(new StoreSpec(storeName, materialized.storeType(), materialized.loggingEnabled(), -1)
                .queryableAs(KeyValueView.tableRows(storeName, k, v)));
        TimeToLive ttl = TableAggregates.timeToLive(graph, storeName, materialized);
        boolean everyChange = materialized.emitsEveryChange();
        String node = graph.addNode(
                storeName,
                nodes,
                () -> new TableMaterializeProcessor<>(storeName, k, v, everyChange, ttl),
                TableAggregates.stores(storeName, ttl),
                Set.of());
        return new TableImpl<>(graph, List.of(node), k, v, TableLookup.of(storeName, null, ttl, k, v));
    }

    @Override
    public <V2> Table<K, V2> mapValues(Function<? super V, ? extends V2> mapper) {
        return mapValuesAs(mapper, null);
    }

    @Override
    public <V2> Table<K, V2> mapValues(Function<? super V, ? extends V2> mapper, Named named) {
        return mapValuesAs(mapper, Objects.requireNonNull(named, "named"));
    }

    private <V2> TableImpl<K, V2> mapValuesAs(Function<? super V, ? extends V2> mapper, @Nullable Named named) {
        Objects.requireNonNull(mapper, "mapper");
        String node = this.<K, Change<V2>>step("table-map-values", named, (r, out) -> {
            Change<V> c = r.value();
            V2 old = c.oldValue() == null ? null : mapper.apply(c.oldValue());
            V2 neu = c.newValue() == null ? null : mapper.apply(c.newValue());
            if (old != null || neu != null) {
                out.accept(r.withValue(new Change<>(old, neu)));
            }
        });
        return new TableImpl<>(graph, List.of(node), keySerde, null, lookup.derive((k, v) -> mapper.apply(v)));
    }

    @Override
    public EventStream<K, V> toStream() {
        return toStream(Refinement.ACCUMULATING);
    }

    @Override
    public EventStream<K, V> toStream(Refinement refinement) {
        return toStreamAs(refinement, null);
    }

    @Override
    public EventStream<K, V> toStream(Refinement refinement, Named named) {
        return toStreamAs(refinement, Objects.requireNonNull(named, "named"));
    }

    private EventStream<K, V> toStreamAs(Refinement refinement, @Nullable Named named) {
        Objects.requireNonNull(refinement, "refinement");
        if (refinement == Refinement.DISCARDING) {
            throw new IllegalArgumentException("toStream(DISCARDING): a table's change has no delta to hold "
                    + "(its values need not be numbers); use ACCUMULATING (new values) or ACCUMULATING_AND_RETRACTING "
                    + "(a retraction of the old value first)");
        }
        String name = named != null ? named.name() : graph.newName("table-to-stream");
        String node =
                graph.addNode(name, nodes, () -> new TableToStreamProcessor<K, V>(refinement), Set.of(), Set.of());
        return new EventStreamImpl<>(graph, List.of(node), keySerde, valueSerde, false);
    }

    @Override
    public <VO, VR> Table<K, VR> join(Table<K, VO> other, BiFunction<? super V, ? super VO, ? extends VR> joiner) {
        return TableTableJoinPlan.wire(this, other, Joiners.nullable(joiner), null, false, false);
    }

    @Override
    public <VO, VR> Table<K, VR> join(
            Table<K, VO> other,
            BiFunction<? super V, ? super VO, ? extends VR> joiner,
            Materialized<K, VR> materialized) {
        return TableTableJoinPlan.wire(
                this,
                other,
                Joiners.nullable(joiner),
                Objects.requireNonNull(materialized, "materialized"),
                false,
                false);
    }

    @Override
    public <VO, VR> Table<K, VR> leftJoin(
            Table<K, VO> other, BiFunction<? super V, ? super @Nullable VO, ? extends VR> joiner) {
        return TableTableJoinPlan.wire(this, other, Joiners.nullable(joiner), null, true, false);
    }

    @Override
    public <VO, VR> Table<K, VR> leftJoin(
            Table<K, VO> other,
            BiFunction<? super V, ? super @Nullable VO, ? extends VR> joiner,
            Materialized<K, VR> materialized) {
        return TableTableJoinPlan.wire(
                this,
                other,
                Joiners.nullable(joiner),
                Objects.requireNonNull(materialized, "materialized"),
                true,
                false);
    }

    @Override
    public <VO, VR> Table<K, VR> outerJoin(
            Table<K, VO> other, BiFunction<? super @Nullable V, ? super @Nullable VO, ? extends VR> joiner) {
        return TableTableJoinPlan.wire(this, other, joiner, null, true, true);
    }

    @Override
    public <VO, VR> Table<K, VR> outerJoin(
            Table<K, VO> other,
            BiFunction<? super @Nullable V, ? super @Nullable VO, ? extends VR> joiner,
            Materialized<K, VR> materialized) {
        return TableTableJoinPlan.wire(
                this, other, joiner, Objects.requireNonNull(materialized, "materialized"), true, true);
    }

    @Override
    public <KO, VO, VR> Table<K, VR> join(
            Table<KO, VO> other,
            Function<? super V, ? extends @Nullable KO> foreignKey,
            BiFunction<? super V, ? super VO, ? extends VR> joiner) {
        return ForeignKeyJoinPlan.wire(this, other, foreignKey, Joiners.nullable(joiner), null, false);
    }

    @Override
    public <KO, VO, VR> Table<K, VR> join(
            Table<KO, VO> other,
            Function<? super V, ? extends @Nullable KO> foreignKey,
            BiFunction<? super V, ? super VO, ? extends VR> joiner,
            Materialized<K, VR> materialized) {
        return ForeignKeyJoinPlan.wire(
                this,
                other,
                foreignKey,
                Joiners.nullable(joiner),
                Objects.requireNonNull(materialized, "materialized"),
                false);
    }

    @Override
    public <KO, VO, VR> Table<K, VR> leftJoin(
            Table<KO, VO> other,
            Function<? super V, ? extends @Nullable KO> foreignKey,
            BiFunction<? super V, ? super @Nullable VO, ? extends VR> joiner) {
        return ForeignKeyJoinPlan.wire(this, other, foreignKey, Joiners.nullable(joiner), null, true);
    }

    @Override
    public <KO, VO, VR> Table<K, VR> leftJoin(
            Table<KO, VO> other,
            Function<? super V, ? extends @Nullable KO> foreignKey,
            BiFunction<? super V, ? super @Nullable VO, ? extends VR> joiner,
            Materialized<K, VR> materialized) {
        return ForeignKeyJoinPlan.wire(
                this,
                other,
                foreignKey,
                Joiners.nullable(joiner),
                Objects.requireNonNull(materialized, "materialized"),
                true);
    }

    /** {@code other} as a table of this builder, which this table may join. */
    <K2, V2> TableImpl<K2, V2> sameBuilder(Table<K2, V2> other) {
        TableImpl<K2, V2> o = (TableImpl<K2, V2>) Objects.requireNonNull(other, "other");
        if (o.graph != graph) {
            throw new IllegalArgumentException("join: the other table belongs to another StreamsBuilder; build both "
                    + "tables with the same builder");
        }
        return o;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <K2, V2> GroupedTable<K2, V2> groupBy(BiFunction<? super K, ? super V, KeyValue<K2, V2>> selector) {
        // Without Grouped, the new key and value are taken to be of the table's types.
        return groupBy(selector, Grouped.with((Serde<K2>) keySerde, (Serde<V2>) valueSerde));
    }

    @Override
    public <K2, V2> GroupedTable<K2, V2> groupBy(
            BiFunction<? super K, ? super V, KeyValue<K2, V2>> selector, Grouped<K2, V2> grouped) {
        Objects.requireNonNull(selector, "selector");
        Objects.requireNonNull(grouped, "grouped");
        String base = grouped.name().orElseGet(() -> graph.newName("table-group"));
        Serde<K2> k = grouped.keySerde().orElse(null);
        Serde<V2> v = grouped.valueSerde().orElse(null);
        if (k == null || v == null) {
            throw new IllegalStateException(
                    "groupBy '" + base + "' of a table: the new " + (k == null ? "key" : "value")
                            + " serde is unknown, and the changes go through a repartition topic; pass Grouped.with(keySerde, "
                            + "valueSerde)");
        }
        graph.useSerde(k, true);
        graph.useSerde(v, false);
        String select = graph.addNode(
                base + "-select",
                nodes,
                () -> new StatelessProcessor<K, Change<V>, K2, Change<V2>>((r, out) -> regroup(selector, r, out)),
                Set.of(),
                Set.of());
        EventStreamImpl<K2, Change<V2>> changes = new EventStreamImpl<K2, Change<V2>>(
                        graph, List.of(select), k, new ChangeSerde<>(v), true)
                .through(
                        base,
                        k,
                        new ChangeSerde<>(v),
                        grouped.numberOfPartitions().orElse(-1));
        return new GroupedTableImpl<>(graph, changes.nodes, k, v);
    }

    /**
     * A change of a row as changes of groups: the old row leaves its group and the new row joins its
     * group, as one change when the group is the same (the subtraction first otherwise).
     */
    private static <K, V, K2, V2> void regroup(
            BiFunction<? super K, ? super V, KeyValue<K2, V2>> selector,
            Record<K, Change<V>> r,
            Consumer<Record<K2, Change<V2>>> out) {
        Change<V> c = r.value();
        KeyValue<K2, V2> old = c.oldValue() == null ? null : selector.apply(r.key(), c.oldValue());
        KeyValue<K2, V2> neu = c.newValue() == null ? null : selector.apply(r.key(), c.newValue());
        if (old != null && neu != null && Objects.equals(old.key(), neu.key())) {
            out.accept(r.with(neu.key(), new Change<>(old.value(), neu.value())));
            return;
        }
        if (old != null) {
            out.accept(r.with(old.key(), new Change<>(old.value(), null)));
        }
        if (neu != null) {
            out.accept(r.with(neu.key(), Change.insert(neu.value())));
        }
    }
}
