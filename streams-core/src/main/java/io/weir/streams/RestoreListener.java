package io.weir.streams;

import org.apache.kafka.common.TopicPartition;

/**
 * Reports a task's state restoration from its changelog, before the task processes. Called on the
 * restoring stream thread: keep it quick. A store whose changelog holds nothing past the store's
 * own offset (after a clean close, or a kill right after a commit) is not reported at all.
 */
public interface RestoreListener {

    /**
     * Restoring {@code store} from {@code changelog}, offsets {@code [from, to)}.
     *
     * @param changelog the changelog partition being replayed
     * @param store the name of the store being restored
     * @param from the first offset to replay
     * @param to the end offset, exclusive: the restore ends when the store has read up to it
     */
    default void onRestoreStart(TopicPartition changelog, String store, long from, long to) {}

    /**
     * {@code restored} more records of {@code store} are in place; the next offset is {@code position}.
     *
     * @param changelog the changelog partition being replayed
     * @param store the name of the store being restored
     * @param position the next offset to replay
     * @param restored the records in this batch
     */
    default void onBatchRestored(TopicPartition changelog, String store, long position, long restored) {}

    /**
     * {@code store} is restored: {@code total} records replayed.
     *
     * @param changelog the changelog partition replayed
     * @param store the name of the store being restored
     * @param total the records replayed in all
     */
    default void onRestoreEnd(TopicPartition changelog, String store, long total) {}
}
