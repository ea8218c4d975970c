package io.weir.streams.internals.runtime;

import io.weir.streams.WeirMetric;
import io.weir.streams.WeirMetrics;
import io.weir.streams.internals.metrics.MetricGroup;
import io.weir.streams.internals.metrics.RegisteredMetric;
import io.weir.streams.internals.state.BytesStore;
import io.weir.streams.internals.state.ChangelogOffset;
import io.weir.streams.internals.state.StoreBatch;
import io.weir.streams.internals.task.TaskStores;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.TaskId;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The standby copies one stream thread keeps ({@code num.standby.replicas}): for each, the task's
 * stores, kept up to date from their changelogs with a consumer of their own ({@code read_committed},
 * so a copy never holds what a later abort takes back). Each batch read goes to its store in one write
 * with the changelog offset it reaches ({@link ChangelogOffset}), as a restore would leave
 * it. Stale reads may read a copy's queryable stores meanwhile. When the task becomes active here, its
 * stores are handed over as they are ({@link #promote}): the restore then replays only the changelog the
 * copy had not read yet, its lag.
 *
 * <p>A source table's store is not followed: its changelog is the input topic, which the active task
 * reads up to its committed offset only; it is restored when the task becomes active.
 *
 * <p>Used by its stream thread only. Owns the stores of its copies until it hands them over, and its
 * consumer, created with the first copy.
 */
final class StandbyTasks implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StandbyTasks.class);

    private final Supplier<Consumer<byte[], byte[]>> consumerFactory;
    private final String applicationId;
    private final boolean exactlyOnce;
    private @Nullable Consumer<byte[], byte[]> consumer;
    private final Map<TaskId, TaskStores> copies = new TreeMap<>();
    /** Each followed changelog partition, and the store it feeds. */
    private final Map<TopicPartition, BytesStore> followed = new HashMap<>();
    /** Each copy's followed changelog partitions. */
    private final Map<TaskId, Set<TopicPartition>> partitionsOf = new TreeMap<>();
    /**
     * Records each followed partition misses, as of the last step (or of the copy's start); read by query
     * threads.
     */
    private final Map<TopicPartition, Long> partitionLag = new ConcurrentHashMap<>();
    /** Records the copies still miss, as of the last step; read by other threads. */
    private volatile long lag;

    private volatile Set<TaskId> ids = Set.of();
    private final MetricGroup threadMetrics;
    /** Each copy's lag, as the metrics report it while the copy is here. */
    private final Map<TaskId, RegisteredMetric> lagMetrics = new HashMap<>();

    /** @param threadMetrics the thread's metric group: each copy reports its lag under its task's group */
    StandbyTasks(
            Supplier<Consumer<byte[], byte[]>> consumerFactory,
            String applicationId,
            boolean exactlyOnce,
            MetricGroup threadMetrics) {
        this.threadMetrics = threadMetrics;
        this.consumerFactory = consumerFactory;
        this.applicationId = applicationId;
        this.exactlyOnce = exactlyOnce;
    }

    /** Starts keeping a copy of task {@code id} in {@code stores}, from where they are. */
    void add(TaskId id, TaskStores stores) {
        Map<TopicPartition, BytesStore> mine = new HashMap<>();
        for (String name : stores.names()) {
            StoreSpec spec = stores.spec(name);
            if (spec.ownChangelog()) {
                mine.put(
                        new TopicPartition(spec.changelogTopic(applicationId), id.partition()),
                        stores.cache(name).store());
            }
        }
        copies.put(id, stores);
        ids = Set.copyOf(copies.keySet());
        Set<TopicPartition> partitions = Set.copyOf(mine.keySet());
        partitionsOf.put(id, partitions);
        lagMetrics.put(
                id,
                threadMetrics
                        .child(WeirMetric.Level.TASK, id.toString())
                        .gauge(WeirMetrics.STANDBY_LAG_RECORDS, () -> lagOf(partitions)));
        if (mine.isEmpty()) {
            return;
        }
        followed.putAll(mine);
        Consumer<byte[], byte[]> c = consumer();
        c.assign(followed.keySet());
        Map<TopicPartition, Long> starts = c.beginningOffsets(mine.keySet());
        Map<TopicPartition, Long> ends = c.endOffsets(mine.keySet());
        mine.forEach((tp, store) -> {
            Long offset = ChangelogOffset.of(store);
            long start = Objects.requireNonNull(starts.get(tp));
            long end = Objects.requireNonNull(ends.get(tp));
            if (offset != null && StoreRestorer.missedRecords(offset, start, end, exactlyOnce)) {
                log.warn(
                        "Standby copy of task {}: store {} holds {} up to offset {}, but the changelog now spans "
                                + "[{}, {}); wiping it and reading the changelog from its start",
                        id,
                        store.name(),
                        tp,
                        offset,
                        start,
                        end);
                store.write(new StoreBatch().deleteRange(null, null).putMetadata(ChangelogOffset.KEY, null));
                offset = null;
            }
            if (offset == null) {
                c.seekToBeginning(List.of(tp));
            } else {
                c.seek(tp, offset);
            }
            partitionLag.put(tp, end - (offset == null ? start : offset));
        });
        // Before the next step: a reader of the lag must never see a copy that read nothing as caught up.
        lag = partitionLag.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Applies what the changelogs returned since the last step, without waiting. Called from the
     * stream thread's loop.
     */
    void step() {
        Consumer<byte[], byte[]> c = consumer;
        if (c == null || followed.isEmpty()) {
            lag = 0;
            return;
        }
        ConsumerRecords<byte[], byte[]> records = c.poll(Duration.ZERO);
        long behind = 0;
        for (Map.Entry<TopicPartition, BytesStore> f : followed.entrySet()) {
            TopicPartition tp = f.getKey();
            List<ConsumerRecord<byte[], byte[]>> batch = records.records(tp);
            if (!batch.isEmpty()) {
                StoreBatch write = new StoreBatch();
                for (ConsumerRecord<byte[], byte[]> r : batch) {
                    write.put(r.key(), r.value());
                }
                write.putMetadata(ChangelogOffset.KEY, ChangelogOffset.bytes(c.position(tp)));
                f.getValue().write(write);
            }
            OptionalLong current = c.currentLag(tp);
            if (current.isPresent()) {
                partitionLag.put(tp, current.getAsLong());
            }
            behind += partitionLag.getOrDefault(tp, 0L);
        }
        lag = behind;
    }

    /** The stores of every copy kept here. */
    Collection<TaskStores> stores() {
        return copies.values();
    }

    /**
     * Stops keeping the copy of task {@code id}, which becomes active here, and hands over its stores
     * (not closed); null when there is no copy of it.
     */
    @Nullable
    TaskStores promote(TaskId id) {
        TaskStores stores = copies.remove(id);
        if (stores != null) {
            unfollow(stores, id);
        }
        return stores;
    }

    /** Drops the copy of task {@code id}: its stores close, their contents stay on disk. */
    void remove(TaskId id) {
        TaskStores stores = promote(id);
        if (stores != null) {
            try {
                stores.close();
            } catch (RuntimeException e) {
                log.warn("Closing the standby copy of task {} failed", id, e);
            }
        }
    }

    private void unfollow(TaskStores stores, TaskId id) {
        for (String name : stores.names()) {
            TopicPartition tp = new TopicPartition(stores.spec(name).changelogTopic(applicationId), id.partition());
            followed.remove(tp);
            partitionLag.remove(tp);
        }
        partitionsOf.remove(id);
        RegisteredMetric lagMetric = lagMetrics.remove(id);
        if (lagMetric != null) {
            threadMetrics.remove(lagMetric);
        }
        ids = Set.copyOf(copies.keySet());
        if (consumer != null) {
            consumer.assign(followed.keySet());
        }
    }

    /** The tasks this thread keeps copies of; callable from any thread. */
    Set<TaskId> ids() {
        return ids;
    }

    /**
     * Each copy with the changelog records it has not read yet, as of the last step (0 for a copy with no
     * changelog to follow).
     */
    Map<TaskId, Long> lags() {
        Map<TaskId, Long> out = new TreeMap<>();
        partitionsOf.forEach((id, partitions) -> out.put(id, lagOf(partitions)));
        return out;
    }

    /** The records the copy following {@code partitions} has not read yet, as of the last step. */
    private long lagOf(Set<TopicPartition> partitions) {
        return partitions.stream()
                .mapToLong(tp -> partitionLag.getOrDefault(tp, 0L))
                .sum();
    }

    /**
     * Records the copy reading changelog {@code partition} has not read yet, as of the last step; {@link
     * Long#MAX_VALUE} before it is followed. Callable from any thread.
     */
    long lag(TopicPartition partition) {
        return partitionLag.getOrDefault(partition, Long.MAX_VALUE);
    }

    /** Changelog records the copies have not read yet, as of the last step; callable from any thread. */
    long lag() {
        return lag;
    }

    private Consumer<byte[], byte[]> consumer() {
        Consumer<byte[], byte[]> c = consumer;
        if (c == null) {
            c = consumerFactory.get();
            consumer = c;
        }
        return c;
    }

    /** Closes every copy's stores and the consumer. */
    @Override
    public void close() {
        for (TaskId id : List.copyOf(copies.keySet())) {
            remove(id);
        }
        if (consumer != null) {
            consumer.close();
        }
    }
}
