package io.weir.streams.test;

import org.apache.kafka.common.serialization.Serializer;

import java.time.Instant;

/** Pipes records into one input topic of a {@link TestDriver}. Single-threaded, like the driver. */
public final class TestInputTopic<K, V> {

    private final TestDriver driver;
    private final String topic;
    private final Serializer<K> keySerializer;
    private final Serializer<V> valueSerializer;

    TestInputTopic(TestDriver driver, String topic, Serializer<K> keySerializer, Serializer<V> valueSerializer) {
        this.driver = driver;
        this.topic = topic;
        this.keySerializer = keySerializer;
        this.valueSerializer = valueSerializer;
    }

    /**
     * A record stamped with the driver's current processing time.
     *
     * @param key the record's key; may be null
     * @param value the record's value; may be null
     */
    public void pipe(K key, V value) {
        pipe(TestRecord.of(key, value));
    }

    /**
     * A record with Kafka timestamp (default event time) {@code timestamp}.
     *
     * @param key the record's key; may be null
     * @param value the record's value; may be null
     * @param timestamp the record's Kafka timestamp
     */
    public void pipe(K key, V value, Instant timestamp) {
        pipe(TestRecord.of(key, value).at(timestamp));
    }

    /**
     * A record with Kafka timestamp (default event time) {@code timestampMillis}.
     *
     * @param key the record's key; may be null
     * @param value the record's value; may be null
     * @param timestampMillis the record's Kafka timestamp, in epoch milliseconds
     */
    public void pipe(K key, V value, long timestampMillis) {
        pipe(TestRecord.of(key, value).at(timestampMillis));
    }

    /**
     * A record with every detail given (see {@link TestRecord}).
     *
     * @param record the record, with its timestamp, partition, arrival time and headers
     */
    public void pipe(TestRecord<K, V> record) {
        byte[] key = keySerializer.serialize(topic, record.headers(), record.key());
        byte[] value = valueSerializer.serialize(topic, record.headers(), record.value());
        driver.pipeRaw(
                topic, record.partition(), key, value, record.headers(), record.timestamp(), record.processingTime());
    }

    /**
     * The topic this handle pipes into.
     *
     * @return the topic's name
     */
    public String topic() {
        return topic;
    }
}
