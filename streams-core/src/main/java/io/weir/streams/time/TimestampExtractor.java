package io.weir.streams.time;

import org.jspecify.annotations.Nullable;

import java.util.function.ToLongFunction;

/**
 * Gives each record its event time in epoch milliseconds. The default is the Kafka record's own
 * timestamp. A negative result is not an event time: the record is rejected with its topic,
 * partition and offset in the message, and the source's error handler decides what happens next.
 *
 * @param <K> the deserialized key type
 * @param <V> the deserialized value type
 */
@FunctionalInterface
public interface TimestampExtractor<K, V> {

    /**
     * The event time of a record, in epoch milliseconds.
     *
     * @return the event time in epoch milliseconds; a negative value rejects the record
     * @param key             the record's key (may be null)
     * @param value           the record's value (may be null)
     * @param recordTimestamp the timestamp of the Kafka record (producer or log-append time)
     */
    long extract(@Nullable K key, @Nullable V value, long recordTimestamp);

    /**
     * The Kafka record's timestamp.
     *
     * @param <K> the key type
     * @param <V> the value type
     * @return an extractor that returns the record's timestamp
     */
    static <K, V> TimestampExtractor<K, V> recordTimestamp() {
        return (key, value, recordTimestamp) -> recordTimestamp;
    }

    /**
     * A timestamp read from the value, e.g. {@code payment -> payment.paidAt().toEpochMilli()}.
     *
     * @param <K> the key type
     * @param <V> the value type
     * @param field gives the event time in epoch milliseconds from a value
     * @return an extractor that reads the event time from the value
     */
    static <K, V> TimestampExtractor<K, V> fromValue(ToLongFunction<? super V> field) {
        return (key, value, recordTimestamp) -> field.applyAsLong(value);
    }
}
