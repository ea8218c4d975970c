package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.Materialized;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.table.TableAggregateProcessor;
import io.weir.streams.internals.table.TableAggregation;
import io.weir.streams.internals.table.TableLookup;
import io.weir.streams.internals.table.TimeToLive;
import io.weir.streams.internals.topology.KeyValueView;
import io.weir.streams.internals.topology.StoreSpec;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Set;

/** Builds the node and store of a non-windowed aggregation, of a stream or of a re-keyed table; checks at build time. */
final class TableAggregates {

    private TableAggregates() {}

    /**
     * A {@code kind} aggregation of what {@code parents} emit (a table's changes when {@code
     * changeInput}) into the store {@code materialized} names.
     */
    static <K, V, A> TableImpl<K, A> build(
            GraphBuilder graph,
            List<String> parents,
            String kind,
            TableAggregation<K, V, A> aggregation,
            boolean changeInput,
            Materialized<K, A> materialized,
            @Nullable Serde<K> streamKeySerde,
            @Nullable Serde<A> aggSerde) {
        String storeName = materialized.storeName().orElseGet(() -> graph.newName("table-" + kind));
        String operator = kind + " into store '" + storeName + "'";
        Serde<K> keySerde = materialized.keySerde().orElse(streamKeySerde);
        if (keySerde == null) {
            throw new IllegalStateException(operator + ": the key serde is unknown (after a map, or a merge of "
                    + "streams with different serdes); give it with Materialized.withKeySerde(...)");
        }
        if (aggSerde == null) {
            throw new IllegalStateException(
                    operator + ": the value serde is unknown; give it with Materialized.withValueSerde(...)");
        }
        if (materialized.retention().isPresent()) {
            throw new IllegalStateException(operator + ": withRetention is for keyed processors' window stores; "
                    + "a table keeps each key until it is deleted");
        }
        if (materialized.historyRetention().isPresent()) {
            throw new IllegalStateException(operator + ": versioned is for tables read from a topic "
                    + "(StreamsBuilder.table); an aggregation keeps its current value");
        }
        graph.useSerde(keySerde, true);
        graph.useSerde(aggSerde, false);
        graph.addStore(new StoreSpec(storeName, materialized.storeType(), materialized.loggingEnabled(), -1)
                .queryableAs(KeyValueView.tableRows(storeName, keySerde, aggSerde)));
        TimeToLive ttl = timeToLive(graph, storeName, materialized);
        TableAggregateProcessor.Settings<K, V, A> settings = new TableAggregateProcessor.Settings<>(
                aggregation, changeInput, storeName, keySerde, aggSerde, materialized.emitsEveryChange(), ttl);
        String node = graph.addNode(
                storeName, parents, () -> new TableAggregateProcessor<>(settings), stores(storeName, ttl), Set.of());
        return new TableImpl<>(
                graph, List.of(node), keySerde, aggSerde, TableLookup.of(storeName, null, ttl, keySerde, aggSerde));
    }

    /** The time-to-live {@code materialized} gives table store {@code store}, with its index store added; or null. */
    static @Nullable TimeToLive timeToLive(GraphBuilder graph, String store, Materialized<?, ?> materialized) {
        if (materialized.timeToLive().isEmpty()) {
            return null;
        }
        String index = TimeToLive.indexStoreOf(store);
        graph.addStore(new StoreSpec(index, materialized.storeType(), materialized.loggingEnabled(), -1));
        return new TimeToLive(TimeMath.millis(materialized.timeToLive().get()), materialized.timeToLiveDomain(), index);
    }

    /** The stores of a table operator: its own, and its time-to-live index if any. */
    static Set<String> stores(String store, @Nullable TimeToLive ttl) {
        return ttl == null ? Set.of(store) : Set.of(store, ttl.indexStore());
    }
}
