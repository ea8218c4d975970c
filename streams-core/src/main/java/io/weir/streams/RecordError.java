package io.weir.streams;

import org.jspecify.annotations.Nullable;

/**
 * An input record that could not be read, with the coordinates that identify it. The original bytes
 * are available for handlers that keep them (e.g. in a dead-letter topic); they are never logged.
 */
public final class RecordError extends RuntimeException {

    /** Why the record could not be read. */
    public enum Reason {
        KEY_DESERIALIZATION,
        VALUE_DESERIALIZATION,
        INVALID_EVENT_TIME,
        /**
         * A record of a repartition topic that claims to be a watermark mark (it has the {@code weir.wm}
         * header) but is not one Weir wrote: a key or value, a missing or malformed header, or a writer
         * the topic does not have. Only repartition topics carry marks; on any other topic the header
         * means nothing and the record is an ordinary one.
         */
        INVALID_WATERMARK_MARK
    }

    private final Reason reason;
    private final String topic;
    private final int partition;
    private final long offset;
    private final transient byte @Nullable [] key;
    private final transient byte @Nullable [] value;

    public RecordError(
            Reason reason,
            String topic,
            int partition,
            long offset,
            byte @Nullable [] key,
            byte @Nullable [] value,
            @Nullable String detail,
            @Nullable Throwable cause) {
        super(reason + " of the record at " + topic + "-" + partition + "@" + offset + ": " + detail, cause);
        this.reason = reason;
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.key = key;
        this.value = value;
    }

    public Reason reason() {
        return reason;
    }

    public String topic() {
        return topic;
    }

    public int partition() {
        return partition;
    }

    public long offset() {
        return offset;
    }

    /** The record's key bytes as consumed (may be null). */
    public byte @Nullable [] key() {
        return key;
    }

    /** The record's value bytes as consumed (may be null). */
    public byte @Nullable [] value() {
        return value;
    }
}
