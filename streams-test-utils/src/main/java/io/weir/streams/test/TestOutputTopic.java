package io.weir.streams.test;

import io.weir.streams.internals.testdriver.TopicLog;
import org.apache.kafka.common.serialization.Deserializer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Reads one topic a {@link TestDriver}'s topology writes (a sink, a side output or a changelog), in
 * the order records were written. Each reader has its own position: reading consumes for this reader
 * only. A driver made with {@link TestDriverConfig#withKeepReadRecords withKeepReadRecords(false)}
 * forgets the records every reader of the topic has read. Single-threaded, like the driver.
 */
public final class TestOutputTopic<K, V> {

    private final TopicLog log;
    private final TopicLog.Reader reader;
    private final Deserializer<K> keyDeserializer;
    private final Deserializer<V> valueDeserializer;

    TestOutputTopic(TopicLog log, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer) {
        this.log = log;
        this.reader = log.newReader();
        this.keyDeserializer = keyDeserializer;
        this.valueDeserializer = valueDeserializer;
    }

    /**
     * Every record not read yet, then marks them read.
     *
     * @return the unread records, in write order; empty when there is none
     */
    public List<OutputRecord<K, V>> readAll() {
        List<OutputRecord<K, V>> out = new ArrayList<>(reader.remaining());
        while (reader.hasNext()) {
            out.add(readOne());
        }
        return out;
    }

    /**
     * The next record; fails if there is none.
     *
     * @return the next unread record
     * @throws IllegalStateException if every record was read
     */
    public OutputRecord<K, V> readOne() {
        if (!reader.hasNext()) {
            throw new IllegalStateException("No unread record on topic '" + log.name() + "'");
        }
        OutputRecord<K, V> record = decode(reader.peek(), reader.position());
        reader.advance();
        return record;
    }

    /**
     * The values of every unread record.
     *
     * @return the values, in write order
     */
    public List<V> readValues() {
        return readAll().stream().map(OutputRecord::value).collect(Collectors.toList());
    }

    /**
     * The unread records as a map holding the last value per key (an upsert view).
     *
     * @return a new map of each key's last value, in the order keys were first written
     */
    public Map<K, V> readLatestByKey() {
        Map<K, V> latest = new LinkedHashMap<>();
        readAll().forEach(r -> latest.put(r.key(), r.value()));
        return latest;
    }

    /**
     * Whether every record written so far was read.
     *
     * @return true if nothing is unread
     */
    public boolean isEmpty() {
        return !reader.hasNext();
    }

    /**
     * How many records are unread.
     *
     * @return the number of unread records
     */
    public int size() {
        return reader.remaining();
    }

    private OutputRecord<K, V> decode(TopicLog.Entry e, long index) {
        K key;
        V value;
        try {
            key = keyDeserializer.deserialize(log.name(), e.headers(), e.key());
        } catch (RuntimeException ex) {
            throw new IllegalStateException(
                    "Cannot read the key of record " + index + " of topic '" + log.name() + "' with "
                            + keyDeserializer.getClass().getName() + ": is it the right serde? " + ex.getMessage(),
                    ex);
        }
        try {
            value = valueDeserializer.deserialize(log.name(), e.headers(), e.value());
        } catch (RuntimeException ex) {
            throw new IllegalStateException(
                    "Cannot read the value of record " + index + " of topic '" + log.name() + "' with "
                            + valueDeserializer.getClass().getName() + ": is it the right serde? " + ex.getMessage(),
                    ex);
        }
        return new OutputRecord<>(key, value, e.timestamp(), e.headers(), e.partition(), e.watermark());
    }
}
