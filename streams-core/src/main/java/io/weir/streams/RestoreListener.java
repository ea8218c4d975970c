package io.weir.streams;

import org.apache.kafka.common.TopicPartition;

/**
 * Reports a task's state restoration from its changelog, before the task processes. Called on the
 * restoring stream thread: keep it quick. A store whose changelog holds nothing past the store's
 * own offset (after a clean close, or a kill right after a commit) is not reported at all.
 */
public interface RestoreListener {

    /** Restoring {@code store} from {@code changelog}, offsets {@code [from, to)}. */
    default void onRestoreStart(TopicPartition changelog, String store, long from, long to) {}

    /** {@code restored} more records of {@code store} are in place; the next offset is {@code position}. */
    default void onBatchRestored(TopicPartition changelog, String store, long position, long restored) {}

    /** {@code store} is restored: {@code total} records replayed. */
    default void onRestoreEnd(TopicPartition changelog, String store, long total) {}
}
