package io.weir.streams.test;

import io.weir.streams.dsl.PaneInfo;
import org.apache.kafka.common.header.Headers;
import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A record read from an output topic of a {@link TestDriver}.
 *
 * @param watermark the watermark of the task that wrote the record, at the moment it wrote it: for a
 *                  pane, the watermark that fired it; {@code Long.MIN_VALUE} before the task's first
 *                  watermark
 */
public record OutputRecord<K, V>(
        @Nullable K key, @Nullable V value, long timestamp, Headers headers, int partition, long watermark) {

    /** The pane info of a windowed result (empty for other records). */
    public Optional<PaneInfo> pane() {
        return PaneInfo.from(headers);
    }

    /** The UTF-8 text of the last header named {@code name}, or null when there is none (as Kafka's {@code lastHeader}). */
    public @Nullable String header(String name) {
        var h = headers.lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
