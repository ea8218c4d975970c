package io.weir.streams.test;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.jspecify.annotations.Nullable;

import java.time.Instant;

/**
 * A record to pipe into a {@link TestInputTopic}, built fluently:
 * {@code TestRecord.of("card-7", payment).at(Times.at("12:00:10")).arrivingAt(Times.at("12:00:15"))}.
 * Unset parts default to: timestamp = the driver's processing time at piping, partition = chosen
 * from the key, processing time = the driver's current time (not moved), no headers; an unset part is
 * null here. Immutable.
 */
public record TestRecord<K, V>(
        @Nullable K key,
        @Nullable V value,
        @Nullable Long timestamp,
        @Nullable Integer partition,
        @Nullable Long processingTime,
        Headers headers) {

    public static <K, V> TestRecord<K, V> of(@Nullable K key, @Nullable V value) {
        return new TestRecord<>(key, value, null, null, null, new RecordHeaders());
    }

    /** The Kafka record timestamp, which is the event time unless the source extracts another. */
    public TestRecord<K, V> at(Instant time) {
        return at(time.toEpochMilli());
    }

    public TestRecord<K, V> at(long epochMillis) {
        return new TestRecord<>(key, value, epochMillis, partition, processingTime, headers);
    }

    /** The input partition (default: from the key, like Kafka's default partitioner). */
    public TestRecord<K, V> partition(int p) {
        return new TestRecord<>(key, value, timestamp, p, processingTime, headers);
    }

    /** The processing time at which the record arrives; the driver's clock moves there first (never back). */
    public TestRecord<K, V> arrivingAt(Instant time) {
        return arrivingAt(time.toEpochMilli());
    }

    public TestRecord<K, V> arrivingAt(long epochMillis) {
        return new TestRecord<>(key, value, timestamp, partition, epochMillis, headers);
    }

    public TestRecord<K, V> withHeader(String name, byte[] value) {
        Headers copy = new RecordHeaders(headers.toArray());
        copy.add(name, value);
        return new TestRecord<>(key, this.value, timestamp, partition, processingTime, copy);
    }
}
