package io.weir.streams.internals.task;

import org.apache.kafka.common.header.Headers;

/** An input record as consumed: coordinates, Kafka timestamp, bytes and headers. */
public record RawRecord(
        String topic, int partition, long offset, long timestamp, byte[] key, byte[] value, Headers headers) {}
