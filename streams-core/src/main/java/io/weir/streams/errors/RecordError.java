package io.weir.streams.errors;

import org.jspecify.annotations.Nullable;

/**
 * An input record that could not be read, with the coordinates that identify it. The original bytes
 * are available for handlers that keep them (e.g. in a dead-letter topic); they are never logged.
 */
public final class RecordError extends RuntimeException {

    /** Why the record could not be read. */
    public enum Reason {
        /** The key deserializer threw. */
        KEY_DESERIALIZATION,
        /** The value deserializer threw. */
        VALUE_DESERIALIZATION,
        /** The timestamp extractor threw or gave a negative event time. */
        INVALID_EVENT_TIME,
        /**
         * A record of a repartition topic that claims to be a watermark mark (it has the {@code weir.wm}
         * header) but is not one Weir wrote: a key or value, a missing or malformed header, or a writer
         * the topic does not have. Only repartition topics carry marks; on any other topic the header
         * means nothing and the record is an ordinary one.
         */
        INVALID_WATERMARK_MARK
    }

    /** Why the record could not be read. */
    private final Reason reason;
    /** The record's topic. */
    private final String topic;
    /** The record's partition. */
    private final int partition;
    /** The record's offset. */
    private final long offset;

    private final transient byte @Nullable [] key;
    private final transient byte @Nullable [] value;

    /**
     * An error for the record at {@code topic-partition@offset}; the message names the reason, the coordinates
     * and {@code detail}.
     *
     * @param reason why the record could not be read
     * @param topic the record's topic
     * @param partition the record's partition
     * @param offset the record's offset
     * @param key the record's key bytes as consumed, or null
     * @param value the record's value bytes as consumed, or null
     * @param detail what went wrong, for the message; never the payload
     * @param cause the exception that made the record unreadable, or null
     */
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

    /**
     * Why the record could not be read.
     *
     * @return the reason: a deserializer failed, or the event time or a watermark mark is invalid
     */
    public Reason reason() {
        return reason;
    }

    /**
     * The topic the record was read from.
     *
     * @return the source topic
     */
    public String topic() {
        return topic;
    }

    /**
     * The partition the record was read from.
     *
     * @return the partition, from 0
     */
    public int partition() {
        return partition;
    }

    /**
     * The record's offset in its partition.
     *
     * @return the offset
     */
    public long offset() {
        return offset;
    }

    /**
     * The record's key bytes as consumed (may be null).
     *
     * @return the key bytes, or null; not kept when the error is serialized
     */
    public byte @Nullable [] key() {
        return key;
    }

    /**
     * The record's value bytes as consumed (may be null).
     *
     * @return the value bytes, or null; not kept when the error is serialized
     */
    public byte @Nullable [] value() {
        return value;
    }
}
