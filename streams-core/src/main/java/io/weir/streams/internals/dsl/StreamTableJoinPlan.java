package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.Joined;
import io.weir.streams.dsl.Table;
import io.weir.streams.internals.join.StreamTableJoinProcessor;
import io.weir.streams.internals.operator.BufferedRecordCodec;
import io.weir.streams.internals.table.TableLookup;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.state.StoreType;
import org.apache.kafka.common.serialization.Serde;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * A stream's join with a table of the same builder as the graph holds it ({@link
 * StreamTableJoinProcessor}): the join's name, the checks of its mode (latest row, as of the record's
 * time, aligned on the table's watermark) against the table and the settings, a repartition of a stream
 * whose key changed, the aligned join's buffer {@code <name>-buffer}, and one node that lists the table's
 * stores, so that it runs in the table's tasks.
 */
final class StreamTableJoinPlan<K, V, TV, VR> {

    private final EventStreamImpl<K, V> stream;
    private final TableLookup<K, TV> lookup;
    private final BiFunction<? super V, ? super TV, ? extends VR> joiner;
    private final Joined<K, V> joined;
    private final boolean left;
    private final String name;

    /** Checks the join's arguments and names it; adds nothing to the graph yet. */
    StreamTableJoinPlan(
            EventStreamImpl<K, V> stream,
            Table<K, TV> table,
            BiFunction<? super V, ? super TV, ? extends VR> joiner,
            Joined<K, V> joined,
            boolean left) {
        Objects.requireNonNull(table, "table");
        this.joiner = Objects.requireNonNull(joiner, "joiner");
        this.joined = Objects.requireNonNull(joined, "joined");
        TableImpl<K, TV> t = (TableImpl<K, TV>) table;
        if (t.graph != stream.graph) {
            throw new IllegalArgumentException("join: the table belongs to another StreamsBuilder; build the stream "
                    + "and the table with the same builder");
        }
        this.stream = stream;
        this.lookup = t.lookup;
        this.left = left;
        this.name = joined.name().orElseGet(() -> stream.graph.newName(left ? "table-left-join" : "table-join"));
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
    }

    /** Adds the join to the graph: a repartition if the key changed, the buffer, the node; returns the joined stream. */
    EventStreamImpl<K, VR> wire() {
        GraphBuilder graph = stream.graph;
        Serde<K> k = joined.keySerde().orElse(stream.keySerde != null ? stream.keySerde : lookup.keySerde());
        Serde<V> v = joined.valueSerde().orElse(stream.valueSerde);
        EventStreamImpl<K, V> input = stream;
        if (stream.keyChanged) {
            if (v == null) {
                throw new IllegalStateException("join '" + name + "': the key was changed, so records are "
                        + "repartitioned by key first, and the stream's value serde is unknown; give it with "
                        + "Joined.withValueSerde(...)");
            }
            input = stream.through(name, k, v, -1);
        }
        Set<String> stores = new HashSet<>(lookup.stores());
        String bufferStore = null;
        BufferedRecordCodec<K, V> codec = null;
        if (joined.mode() == Joined.Mode.ALIGNED) {
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
        String lateTopic = joined.lateTopic().orElse(null);
        StreamTableJoinProcessor.Settings<K, V, TV, VR> settings = new StreamTableJoinProcessor.Settings<>(
                joined.mode(), left, lookup, joiner, bufferStore, codec, lateTopic);
        String node = graph.addNode(
                name,
                input.nodes,
                () -> new StreamTableJoinProcessor<>(settings),
                stores,
                lateTopic == null ? Set.of() : Set.of(lateTopic));
        return new EventStreamImpl<>(graph, List.of(node), k, null, false);
    }
}
