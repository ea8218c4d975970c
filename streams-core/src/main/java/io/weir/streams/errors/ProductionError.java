package io.weir.streams.errors;

import io.weir.streams.internals.Redaction;
import org.jspecify.annotations.Nullable;

/**
 * A record a sink could not produce, before any of it reached Kafka: its key or value did not
 * serialize, it is larger than its topic accepts, or its topic would refuse its timestamp. The message names the sink topic, the reason and
 * the coordinates of the input record it derives from (never its payload).
 *
 * <p>Only failures that leave nothing behind are described by a {@code ProductionError} and offered to
 * a {@link ProductionErrorHandler}. A failure reported by Kafka for a record already handed to the
 * producer (a fenced producer, a failed transaction, a broker that refused the batch, a timeout) is
 * never offered: under exactly-once it has made the open transaction abortable, so skipping the
 * record could only be done by losing the transaction's other records; the stream thread fails instead.
 */
public final class ProductionError extends DerivedRecordError {

    /** Why the record could not be produced. */
    public enum Reason {
        /** The key serializer threw. */
        KEY_SERIALIZATION,
        /** The value serializer threw. */
        VALUE_SERIALIZATION,
        /**
         * Larger than the smallest of the sink topic's {@code max.message.bytes}, the producer's
         * {@code max.request.size} and {@code buffer.memory}, judged on the uncompressed size of a batch
         * holding the record alone (as the producer judges {@code max.request.size}).
         */
        RECORD_TOO_LARGE,
        /**
         * A timestamp the sink topic would refuse: further from the broker's clock than its {@code
         * message.timestamp.before.max.ms} or {@code message.timestamp.after.max.ms} allow (Kafka 4 brokers
         * refuse records more than an hour ahead by default). Outputs carry their event times, so a
         * record whose event time is far from now can meet this.
         */
        TIMESTAMP_OUT_OF_RANGE
    }

    /** Why the record could not be produced. */
    private final Reason reason;
    /** The topic the record was to be written to. */
    private final String sinkTopic;

    /**
     * An error for a record that could not be produced to {@code sinkTopic}; the message names the reason,
     * the sink topic, the input record's coordinates and the cause.
     *
     * @param reason why the record could not be produced
     * @param sinkTopic the topic the record was to be written to
     * @param sourceTopic the topic of the input record the failed record derives from, or null when it
     *                    derives from a window result
     * @param sourcePartition that input record's partition, or -1 when there is none
     * @param sourceOffset that input record's offset, or -1 when there is none
     * @param cause the exception that caused the failure
     */
    public ProductionError(
            Reason reason,
            String sinkTopic,
            @Nullable String sourceTopic,
            int sourcePartition,
            long sourceOffset,
            Throwable cause) {
        super(
                reason + " producing to topic '" + sinkTopic + "' the record derived from "
                        + coordinates(sourceTopic, sourcePartition, sourceOffset, "a window result") + ": "
                        + Redaction.describe(cause),
                sourceTopic,
                sourcePartition,
                sourceOffset,
                cause);
        this.reason = reason;
        this.sinkTopic = sinkTopic;
    }

    /**
     * Why the record could not be produced.
     *
     * @return the reason: a serializer failed, or the record is too large or its timestamp out of range
     */
    public Reason reason() {
        return reason;
    }

    /**
     * The topic the record was to be written to.
     *
     * @return the sink topic
     */
    public String sinkTopic() {
        return sinkTopic;
    }
}
