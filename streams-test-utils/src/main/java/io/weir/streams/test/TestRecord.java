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
 *
 * @param <K> the key type
 * @param <V> the value type
 * @param key the record's key; may be null
 * @param value the record's value; may be null
 * @param timestamp the Kafka timestamp in epoch milliseconds, or null for the driver's processing time
 * @param partition the input partition, or null to choose it from the key
 * @param processingTime when the record arrives, in epoch milliseconds, or null for the driver's current time
 * @param headers the record's headers
 */
public record TestRecord<K, V>(
        @Nullable K key,
        @Nullable V value,
        @Nullable Long timestamp,
        @Nullable Integer partition,
        @Nullable Long processingTime,
        Headers headers) {

    /**
     * A record with this key and value and the defaults for the rest.
     *
     * @param <K> the key type
     * @param <V> the value type
     * @param key the record's key; may be null
     * @param value the record's value; may be null
     * @return a new record without timestamp, partition, arrival time or headers
     */
    public static <K, V> TestRecord<K, V> of(@Nullable K key, @Nullable V value) {
        return new TestRecord<>(key, value, null, null, null, new RecordHeaders());
    }

    /**
     * The Kafka record timestamp, which is the event time unless the source extracts another.
     *
     * @param time the Kafka timestamp
     * @return a copy with that timestamp
     */
    public TestRecord<K, V> at(Instant time) {
        return at(time.toEpochMilli());
    }

    /**
     * The Kafka record timestamp in epoch milliseconds, which is the event time unless the source extracts
     * another.
     *
     * @param epochMillis the Kafka timestamp, in epoch milliseconds
     * @return a copy with that timestamp
     */
    public TestRecord<K, V> at(long epochMillis) {
        return new TestRecord<>(key, value, epochMillis, partition, processingTime, headers);
    }

    /**
     * The input partition (default: from the key, like Kafka's default partitioner).
     *
     * @param p the partition, from 0 to the topic's partition count - 1
     * @return a copy with that partition
     */
    public TestRecord<K, V> partition(int p) {
        return new TestRecord<>(key, value, timestamp, p, processingTime, headers);
    }

    /**
     * The processing time at which the record arrives; the driver's clock moves there first (never back).
     *
     * @param time when the record arrives
     * @return a copy with that arrival time
     */
    public TestRecord<K, V> arrivingAt(Instant time) {
        return arrivingAt(time.toEpochMilli());
    }

    /**
     * The processing time at which the record arrives, in epoch milliseconds; the driver's clock moves there
     * first (never back).
     *
     * @param epochMillis when the record arrives, in epoch milliseconds
     * @return a copy with that arrival time
     */
    public TestRecord<K, V> arrivingAt(long epochMillis) {
        return new TestRecord<>(key, value, timestamp, partition, epochMillis, headers);
    }

    /**
     * Adds a header, after those already there.
     *
     * @param name the header's key
     * @param value the header's value
     * @return a copy with the header added
     */
    public TestRecord<K, V> withHeader(String name, byte[] value) {
        Headers copy = new RecordHeaders(headers.toArray());
        copy.add(name, value);
        return new TestRecord<>(key, this.value, timestamp, partition, processingTime, copy);
    }
}
