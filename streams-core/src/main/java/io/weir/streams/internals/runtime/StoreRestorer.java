package io.weir.streams.internals.runtime;

import io.weir.streams.RestoreListener;
import io.weir.streams.internals.state.BytesStore;
import io.weir.streams.internals.state.StoreBatch;
import io.weir.streams.internals.state.TaskStores;
import io.weir.streams.internals.task.TaskId;
import io.weir.streams.internals.topology.StoreSpec;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;

/**
 * Brings a task's stores up to date from their changelogs (read_committed) before the task runs.
 * A store remembers, in the metadata of each batch it receives, the changelog offset its contents
 * correspond to; restoration replays only the changelog past that offset — the whole changelog for a
 * new store, the tail after a crash, nothing after a clean shutdown. Uses (does not own) the thread's
 * restore consumer.
 */
final class StoreRestorer {

    /** Store metadata key: the next changelog offset the store's contents do not yet include. */
    static final String OFFSET_KEY = "changelog-offset";

    private static final Logger log = LoggerFactory.getLogger(StoreRestorer.class);
    private static final Duration STALL_LIMIT = Duration.ofMinutes(5);

    private final Consumer<byte[], byte[]> consumer;
    private final RestoreListener listener;

    StoreRestorer(Consumer<byte[], byte[]> consumer, RestoreListener listener) {
        this.consumer = consumer;
        this.listener = listener;
    }

    static byte[] offsetBytes(long offset) {
        return ByteBuffer.allocate(8).putLong(offset).array();
    }

    void restore(TaskId task, TaskStores stores, String applicationId) {
        for (String name : stores.names()) {
            StoreSpec spec = stores.spec(name);
            if (spec.logged()) {
                restore(new TopicPartition(spec.changelogTopic(applicationId), task.partition()), name,
                        stores.cache(name).store());
            }
        }
    }

    private void restore(TopicPartition changelog, String name, BytesStore store) {
        byte[] stored = store.metadata(OFFSET_KEY);
        consumer.assign(List.of(changelog));
        if (stored == null) {
            consumer.seekToBeginning(List.of(changelog));
        } else {
            consumer.seek(changelog, ByteBuffer.wrap(stored).getLong());
        }
        long end = consumer.endOffsets(List.of(changelog)).get(changelog);
        long from = consumer.position(changelog);
        long total = 0;
        long lastProgress = System.nanoTime();
        while (consumer.position(changelog) < end) {
            StoreBatch batch = new StoreBatch();
            int n = 0;
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                batch.put(r.key(), r.value());
                n++;
            }
            long position = consumer.position(changelog);
            if (n > 0) {
                // Announced with the first record, not before: the range left after a commit usually
                // holds only that transaction's marker, which is nothing to restore.
                if (total == 0) {
                    log.info("Restoring store {} from {} offsets [{}, {})", name, changelog, from, end);
                    listener.onRestoreStart(changelog, name, from, end);
                }
                store.restore(batch.putMetadata(OFFSET_KEY, offsetBytes(position)));
                total += n;
                lastProgress = System.nanoTime();
                listener.onBatchRestored(changelog, name, position, n);
            } else if (System.nanoTime() - lastProgress > STALL_LIMIT.toNanos()) {
                throw new IllegalStateException("Restoring store " + name + " from " + changelog + " made no progress for "
                        + STALL_LIMIT.toMinutes() + " minutes at offset " + position + " of " + end);
            }
        }
        long position = consumer.position(changelog);
        if (position != from) {
            store.restore(new StoreBatch().putMetadata(OFFSET_KEY, offsetBytes(position)));
            store.endRestore();
        }
        consumer.assign(List.of());
        if (total > 0) {
            log.info("Restored store {}: {} records", name, total);
            listener.onRestoreEnd(changelog, name, total);
        }
    }
}
