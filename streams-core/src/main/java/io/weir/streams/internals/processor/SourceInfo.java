package io.weir.streams.internals.processor;

import org.apache.kafka.common.header.Headers;
import org.jspecify.annotations.Nullable;

/**
 * Where a record came from: its input coordinates, its bytes as consumed (late-data side outputs
 * and dead-letter topics write these, whatever the operators did to the record since), and whether
 * its event time was judged too far in the future to be trusted.
 */
public record SourceInfo(
        String topic,
        int partition,
        long offset,
        long kafkaTimestamp,
        byte @Nullable [] rawKey,
        byte @Nullable [] rawValue,
        Headers rawHeaders,
        boolean futureEventTime) {

    /** {@code topic-partition@offset}, for messages and logs. */
    public String coordinates() {
        return topic + "-" + partition + "@" + offset;
    }
}
