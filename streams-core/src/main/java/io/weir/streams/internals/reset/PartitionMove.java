package io.weir.streams.internals.reset;

import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * One partition's committed offset as a reset moves it.
 *
 * @param partition the input (or intermediate) topic's partition
 * @param from the group's committed offset now, or null when it has none
 * @param to the offset the group will have committed
 * @param note why {@code to} is not what was asked (brought within the partition's offsets), or null
 */
public record PartitionMove(
        TopicPartition partition,
        @Nullable Long from,
        long to,
        @Nullable String note) {}
