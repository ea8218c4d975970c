package io.weir.streams.internals.task;

import org.apache.kafka.common.header.Headers;
import org.jspecify.annotations.Nullable;

/** An input record as consumed: coordinates, Kafka timestamp, bytes and headers. */
public record RawRecord(
        String topic,
        int partition,
        long offset,
        long timestamp,
        byte @Nullable [] key,
        byte @Nullable [] value,
        Headers headers) {}
