package io.weir.streams.internals.query;

import io.weir.streams.HostInfo;
import io.weir.streams.InstanceMetadata;
import io.weir.streams.KeyMetadata;
import io.weir.streams.dsl.StreamPartitioner;
import io.weir.streams.internals.topology.KeyValueView;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.StoreView;
import io.weir.streams.internals.topology.SubtopologySpec;
import io.weir.streams.internals.topology.TaskId;
import io.weir.streams.internals.topology.TopologySpec;
import io.weir.streams.internals.topology.WindowView;
import io.weir.streams.state.QueryableStoreType;
import io.weir.streams.state.ReadOnlyKeyValueStore;
import io.weir.streams.state.StoreQuery;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Utils;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;
import java.util.function.ToIntBiFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What an instance answers about its state, behind {@code WeirStreams.store}, {@code metadataForKey}
 * and {@code allMetadata} (their Javadoc states the semantics): the stores its tasks hold now ({@link
 * LocalStores}) and where every instance's tasks are ({@link ClusterMetadata}). Thread-safe.
 */
public final class Serving {

    private final TopologySpec topology;
    private final String applicationId;
    private final LocalStores local = new LocalStores();
    private final ClusterMetadata cluster = new ClusterMetadata();
    private final BooleanSupplier stopped;
    /** The global tables' stores, by name, once bootstrapped: each a view with a scan limit. */
    private final Map<String, LongFunction<ReadOnlyKeyValueStore<?, ?>>> globals = new ConcurrentHashMap<>();

    /** @param stopped whether the application has stopped or failed */
    public Serving(TopologySpec topology, String applicationId, BooleanSupplier stopped) {
        this.topology = topology;
        this.applicationId = applicationId;
        this.stopped = stopped;
    }

    public LocalStores local() {
        return local;
    }

    public ClusterMetadata cluster() {
        return cluster;
    }

    /**
     * A view of store {@code query.storeName()}: see {@code WeirStreams.store}. Refuses a name that is not
     * a queryable store, listing those there are with their kinds, and a type that is not the store's,
     * naming the type to ask for.
     */
    public <T> T store(StoreQuery<T> query) {
        String name = query.storeName();
        QueryableStoreType<T> type = query.type();
        if (topology.globalTables().stream().anyMatch(g -> g.storeName().equals(name))) {
            return globalTable(name, type, query.scanLimit());
        }
        StoreSpec spec = topology.stores().get(name);
        StoreView view = spec == null ? null : spec.queryable();
        if (view == null) {
            List<String> queryable = topology.stores().values().stream()
                    .flatMap(s -> Stream.ofNullable(s.queryable()))
                    .map(v -> v.store() + " (" + v.type() + ")")
                    .collect(Collectors.toCollection(ArrayList::new));
            topology.globalTables()
                    .forEach(g -> queryable.add(
                            g.storeName() + " (global table, " + QueryableStoreType.keyValueStore() + ")"));
            queryable.sort(null);
            throw new IllegalArgumentException("No queryable " + type + " named '" + name + "'"
                    + (spec == null ? "" : " (it is an internal store)") + "; the queryable stores are " + queryable
                    + ": tables (global ones too), joins that give tables, windowed and session aggregations, and "
                    + "keyed processors' stores, named with Materialized.as(name) or the processor's store name");
        }
        if (!view.type().equals(type)) {
            throw new IllegalArgumentException("Store '" + name + "' is a " + view.type() + ", not a " + type
                    + "; ask for it with " + view.typeCall());
        }
        // The view's kind is the one the caller asked for, and its type parameters the caller's to choose.
        @SuppressWarnings("unchecked")
        T answer = (T) read(view, new StoreCopies(name, local, stopped, query.staleReads(), query.scanLimit()));
        return answer;
    }

    /** The queries that read a store of {@code view}'s kind over {@code copies}. */
    private static Object read(StoreView view, StoreCopies copies) {
        if (view instanceof KeyValueView<?, ?> keyValues) {
            return new KeyValueQuery<>(keyValues, copies);
        }
        WindowView<?, ?> windows = (WindowView<?, ?>) view;
        WindowScan<?, ?> scan = new WindowScan<>(windows, copies);
        return windows.kind() == WindowView.Kind.SESSIONS ? new SessionQuery<>(scan) : new WindowQuery<>(scan);
    }

    /** A view of global table store {@code name}, readable once its bootstrap has read the topic. */
    private <T> T globalTable(String name, QueryableStoreType<T> type, long scanLimit) {
        if (!type.equals(QueryableStoreType.keyValueStore())) {
            throw new IllegalArgumentException("Store '" + name + "' is a global table, not a " + type
                    + "; ask for it with QueryableStoreType.keyValueStore()");
        }
        // A global table's store is a key-value store, the kind the caller asked for.
        @SuppressWarnings("unchecked")
        T answer = (T) new GlobalTableQuery<Object, Object>(
                name,
                () -> {
                    LongFunction<ReadOnlyKeyValueStore<?, ?>> view = globals.get(name);
                    @SuppressWarnings("unchecked")
                    ReadOnlyKeyValueStore<Object, Object> store =
                            view == null ? null : (ReadOnlyKeyValueStore<Object, Object>) view.apply(scanLimit);
                    return store;
                },
                stopped);
        return answer;
    }

    /**
     * Global table store {@code name} has read its topic up to the end: queries read it from now on,
     * through {@code view}, which gives a view whose scans stop after the given number of entries.
     */
    public void hostGlobalTable(String name, LongFunction<ReadOnlyKeyValueStore<?, ?>> view) {
        globals.put(name, view);
    }

    /** The global tables are about to close: queries of them fail from now on. */
    public void unhostGlobalTables() {
        globals.clear();
    }

    /** Where {@code key} of store {@code name} lives: see {@code WeirStreams.metadataForKey}. */
    public <K> Optional<KeyMetadata> metadataForKey(String name, K key, Serializer<K> keySerializer) {
        return metadataForKey(name, (topic, partitions) -> {
            byte[] bytes = keySerializer.serialize(topic, key);
            if (bytes == null) {
                throw new IllegalArgumentException(
                        "The key of store '" + name + "' serialized to null: it has no partition");
            }
            return Utils.toPositive(Utils.murmur2(bytes)) % partitions;
        });
    }

    /**
     * Where {@code key} of store {@code name} lives when the store's input is partitioned by {@code
     * partitioner}: see {@code WeirStreams.metadataForKey}.
     */
    public <K> Optional<KeyMetadata> metadataForKey(String name, K key, StreamPartitioner<? super K, ?> partitioner) {
        return metadataForKey(name, (topic, partitions) -> {
            int partition = partitioner.partition(topic, key, null, partitions);
            if (partition < 0 || partition >= partitions) {
                throw new IllegalArgumentException("The partitioner put the key of store '" + name + "' in partition "
                        + partition + ", outside [0, " + partitions + ")");
            }
            return partition;
        });
    }

    /** @param partitionOf the partition of the key in the store's input topic, given it and its partition count */
    private Optional<KeyMetadata> metadataForKey(String name, ToIntBiFunction<String, Integer> partitionOf) {
        int subtopology = subtopologyOf(name);
        Integer partitions = cluster.taskCounts().get(subtopology);
        if (partitions == null) {
            return Optional.empty();
        }
        String input =
                topology.subtopologies().get(subtopology).sources().get(0).topic(applicationId);
        int partition = partitionOf.applyAsInt(input, partitions);
        TaskId task = new TaskId(subtopology, partition);
        Set<HostInfo> standbys = new TreeSet<>(Comparator.comparing(HostInfo::toString));
        cluster.hosts().forEach((host, tasks) -> {
            if (tasks.standbys().contains(task)) {
                standbys.add(host);
            }
        });
        return cluster.hosts().entrySet().stream()
                .filter(e -> e.getValue().active().contains(task))
                .findFirst()
                .map(e -> new KeyMetadata(e.getKey(), standbys, partition));
    }

    /** Every instance with an endpoint: see {@code WeirStreams.allMetadata}. */
    public List<InstanceMetadata> allMetadata() {
        List<InstanceMetadata> all = new ArrayList<>();
        cluster.hosts().forEach((host, tasks) -> {
            Set<String> stores = new TreeSet<>();
            Set<TopicPartition> partitions = new HashSet<>();
            for (TaskId task : tasks.active()) {
                SubtopologySpec sub = topology.subtopologies().get(task.subtopology());
                stores.addAll(sub.stores());
                sub.sources()
                        .forEach(s -> partitions.add(new TopicPartition(s.topic(applicationId), task.partition())));
            }
            all.add(new InstanceMetadata(host, stores, partitions));
        });
        all.sort(Comparator.comparing(m -> m.host().toString()));
        return all;
    }

    private int subtopologyOf(String store) {
        List<SubtopologySpec> subs = topology.subtopologies();
        for (int i = 0; i < subs.size(); i++) {
            if (subs.get(i).stores().contains(store)) {
                return i;
            }
        }
        throw new IllegalArgumentException("No store named '" + store + "' in the topology; its stores are "
                + new TreeSet<>(topology.stores().keySet()));
    }
}
