package io.weir.streams.internals.runtime;

import io.weir.streams.RestoreListener;
import io.weir.streams.internals.state.BytesStore;
import io.weir.streams.internals.state.StoreBatch;
import io.weir.streams.internals.state.TaskStores;
import io.weir.streams.internals.task.TaskId;
import io.weir.streams.internals.topology.StoreSpec;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Brings tasks' stores up to date from their changelogs (read_committed) before the tasks run, a
 * step at a time, so that the stream thread keeps polling its group consumer (and stays a member)
 * however long a restore takes. A store remembers, in the metadata of each batch it receives, the
 * changelog offset its contents correspond to; restoration replays only the changelog past that
 * offset — the whole changelog for a new store, the tail after a crash, nothing after a clean
 * shutdown. Restored batches go through {@link BytesStore#restore} (no write-ahead log) and
 * {@link BytesStore#endRestore} makes them durable when a store is done.
 *
 * <p>Used by one stream thread; uses (does not own) that thread's restore consumer and the stores.
 */
final class StoreRestorer {

    /** Store metadata key: the next changelog offset the store's contents do not yet include. */
    static final String OFFSET_KEY = "changelog-offset";

    private static final Logger log = LoggerFactory.getLogger(StoreRestorer.class);
    private static final Duration STALL_LIMIT = Duration.ofMinutes(5);

    private final Consumer<byte[], byte[]> consumer;
    private final RestoreListener listener;
    private final Map<TopicPartition, Changelog> changelogs = new HashMap<>();
    private final Map<TaskId, Set<TopicPartition>> pending = new HashMap<>();

    /** One store's changelog partition being replayed. */
    private static final class Changelog {
        final TaskId task;
        final String store;
        final BytesStore target;
        final long from;
        final long end;
        long restored;
        long lastProgress = System.nanoTime();

        Changelog(TaskId task, String store, BytesStore target, long from, long end) {
            this.task = task;
            this.store = store;
            this.target = target;
            this.from = from;
            this.end = end;
        }
    }

    StoreRestorer(Consumer<byte[], byte[]> consumer, RestoreListener listener) {
        this.consumer = consumer;
        this.listener = listener;
    }

    static byte[] offsetBytes(long offset) {
        return ByteBuffer.allocate(8).putLong(offset).array();
    }

    /**
     * Starts restoring a task's logged stores: positions each changelog after what its store holds
     * and reads where the changelog ends now.
     */
    void register(TaskId task, TaskStores stores, String applicationId) {
        Map<TopicPartition, String> logged = new HashMap<>();
        for (String name : stores.names()) {
            StoreSpec spec = stores.spec(name);
            if (spec.logged()) {
                logged.put(new TopicPartition(spec.changelogTopic(applicationId), task.partition()), name);
            }
        }
        List<TopicPartition> assignment = new ArrayList<>(changelogs.keySet());
        assignment.addAll(logged.keySet());
        // Partitions that stay assigned keep their positions.
        consumer.assign(assignment);
        Map<TopicPartition, Long> ends = consumer.endOffsets(logged.keySet());
        logged.forEach((tp, name) -> {
            BytesStore store = stores.cache(name).store();
            byte[] stored = store.metadata(OFFSET_KEY);
            if (stored == null) {
                consumer.seekToBeginning(List.of(tp));
            } else {
                consumer.seek(tp, ByteBuffer.wrap(stored).getLong());
            }
            changelogs.put(tp, new Changelog(task, name, store, consumer.position(tp), ends.get(tp)));
        });
        pending.put(task, new HashSet<>(logged.keySet()));
    }

    /** Whether any registered task is still restoring. */
    boolean restoring() {
        return !pending.isEmpty();
    }

    /**
     * Reads what the changelogs return within {@code timeout} (one store batch per changelog
     * partition) and finishes the stores that reached their end.
     *
     * @return the tasks whose stores are all restored now; they are no longer registered
     * @throws IllegalStateException if a changelog made no progress for five minutes
     */
    Set<TaskId> step(Duration timeout) {
        Set<TaskId> done = new HashSet<>();
        // A task without logged stores, or whose changelogs hold nothing new, is done at once.
        pending.forEach((task, partitions) -> {
            if (partitions.isEmpty()) {
                done.add(task);
            }
        });
        ConsumerRecords<byte[], byte[]> records = changelogs.isEmpty() ? ConsumerRecords.empty() : consumer.poll(timeout);
        for (TopicPartition tp : new ArrayList<>(changelogs.keySet())) {
            Changelog c = changelogs.get(tp);
            List<ConsumerRecord<byte[], byte[]>> batch = records.records(tp);
            long position = consumer.position(tp);
            if (!batch.isEmpty()) {
                apply(tp, c, batch, position);
            } else if (position < c.end && System.nanoTime() - c.lastProgress > STALL_LIMIT.toNanos()) {
                throw new IllegalStateException("Restoring store " + c.store + " from " + tp + " made no progress for "
                        + STALL_LIMIT.toMinutes() + " minutes at offset " + position + " of " + c.end);
            }
            if (position >= c.end) {
                finish(tp, c, position);
                Set<TopicPartition> left = pending.get(c.task);
                left.remove(tp);
                if (left.isEmpty()) {
                    done.add(c.task);
                }
            }
        }
        done.forEach(pending::remove);
        return done;
    }

    private void apply(TopicPartition tp, Changelog c, List<ConsumerRecord<byte[], byte[]>> records, long position) {
        // Announced with the first record, not before: the range left after a commit usually holds
        // only that transaction's marker, which is nothing to restore.
        if (c.restored == 0) {
            log.info("Restoring store {} of task {} from {} offsets [{}, {})", c.store, c.task, tp, c.from, c.end);
            listener.onRestoreStart(tp, c.store, c.from, c.end);
        }
        StoreBatch batch = new StoreBatch();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            batch.put(r.key(), r.value());
        }
        c.target.restore(batch.putMetadata(OFFSET_KEY, offsetBytes(position)));
        c.restored += records.size();
        c.lastProgress = System.nanoTime();
        listener.onBatchRestored(tp, c.store, position, records.size());
    }

    private void finish(TopicPartition tp, Changelog c, long position) {
        changelogs.remove(tp);
        consumer.assign(changelogs.keySet());
        if (position != c.from) {
            c.target.restore(new StoreBatch().putMetadata(OFFSET_KEY, offsetBytes(position)));
            c.target.endRestore();
        }
        if (c.restored > 0) {
            log.info("Restored store {} of task {}: {} records", c.store, c.task, c.restored);
            listener.onRestoreEnd(tp, c.store, c.restored);
        }
    }

    /** Stops restoring a task (it was revoked or its thread is closing); its stores keep what was restored. */
    void remove(TaskId task) {
        Set<TopicPartition> partitions = pending.remove(task);
        if (partitions != null) {
            partitions.forEach(tp -> {
                Changelog c = changelogs.remove(tp);
                if (c != null && c.restored > 0) {
                    c.target.endRestore();
                }
            });
            consumer.assign(changelogs.keySet());
        }
    }
}
