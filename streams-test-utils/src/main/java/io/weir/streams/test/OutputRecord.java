package io.weir.streams.test;

import io.weir.streams.dsl.PaneInfo;
import org.apache.kafka.common.header.Headers;
import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A record read from an output topic of a {@link TestDriver}.
 *
 * @param <K> the key type
 * @param <V> the value type
 * @param key the record's key, as the reader's serde read it
 * @param value the record's value, as the reader's serde read it; null for a tombstone
 * @param timestamp the record's timestamp in epoch milliseconds: its event time
 * @param headers the record's headers
 * @param partition the partition it was written to
 * @param watermark the watermark of the task that wrote the record, at the moment it wrote it: for a
 *                  pane, the watermark that fired it; {@code Long.MIN_VALUE} before the task's first
 *                  watermark
 */
public record OutputRecord<K, V>(
        @Nullable K key, @Nullable V value, long timestamp, Headers headers, int partition, long watermark) {

    /**
     * The pane info of a windowed result (empty for other records).
     *
     * @return the pane info, read from the headers
     */
    public Optional<PaneInfo> pane() {
        return PaneInfo.from(headers);
    }

    /**
     * The UTF-8 text of the last header named {@code name}, or null when there is none (as Kafka's {@code
     * lastHeader}).
     *
     * @param name the header's key
     * @return the header's value as text, or null
     */
    public @Nullable String header(String name) {
        var h = headers.lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
