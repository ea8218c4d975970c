package io.weir.streams.internals.processor;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.jspecify.annotations.Nullable;

/**
 * A record travelling through a task's processors: key, value, event time and headers, plus the
 * {@link SourceInfo} of the input record it derives from. Immutable apart from the headers, which
 * processors treat as read-only (copy before adding).
 */
// The name users of Kafka Streams' Processor API know (its processor.api.Record); java.lang.Record is never
// needed beside it.
@SuppressWarnings("JavaLangClash")
public final class Record<K, V> {

    private final K key;
    private final V value;
    private final long timestamp;
    private final Headers headers;
    private final @Nullable SourceInfo source;

    public Record(K key, V value, long timestamp, @Nullable Headers headers, @Nullable SourceInfo source) {
        this.key = key;
        this.value = value;
        this.timestamp = timestamp;
        this.headers = headers == null ? new RecordHeaders() : headers;
        this.source = source;
    }

    public K key() {
        return key;
    }

    public V value() {
        return value;
    }

    /** Event time in epoch milliseconds. */
    public long timestamp() {
        return timestamp;
    }

    public Headers headers() {
        return headers;
    }

    /** The input record this one derives from; null for a record an operator made (a window result). */
    public @Nullable SourceInfo source() {
        return source;
    }

    /** Whether the input record this derives from had an event time beyond the source's maximum future skew. */
    public boolean beyondFutureSkew() {
        return source != null && source.futureEventTime();
    }

    public <K2> Record<K2, V> withKey(K2 newKey) {
        return new Record<>(newKey, value, timestamp, headers, source);
    }

    public <V2> Record<K, V2> withValue(V2 newValue) {
        return new Record<>(key, newValue, timestamp, headers, source);
    }

    public <K2, V2> Record<K2, V2> with(K2 newKey, V2 newValue) {
        return new Record<>(newKey, newValue, timestamp, headers, source);
    }
}
