package io.weir.streams.errors;

/**
 * The shape of a record on a dead-letter topic ({@link ErrorDecision#deadLetter}): the input record's
 * key and value bytes and headers exactly as consumed (for a failed production or processing, the input
 * record the failed record derives from), plus these headers, like a late-data side output's ({@link io.weir.streams.dsl.LateRecord}):
 * <ul>
 *   <li>{@value #REASON_HEADER}: a {@link RecordError.Reason} or {@link ProductionError.Reason} name, or
 *       {@value #PROCESSING_REASON} for a {@link ProcessingError};</li>
 *   <li>{@value #OPERATOR_HEADER}: the operator that failed ({@code source:<topic>} for a record that
 *       could not be read, {@code sink:<topic>} for one that could not be produced);</li>
 *   <li>{@value #EXCEPTION_HEADER} and {@value #MESSAGE_HEADER}: the class of the exception that caused
 *       the failure (the error itself when nothing underlies it) and the error's message;</li>
 *   <li>{@value #SINK_TOPIC_HEADER}: the topic the record could not be produced to (production errors
 *       only);</li>
 *   <li>{@value #SOURCE_TOPIC_HEADER}, {@value #SOURCE_PARTITION_HEADER}, {@value #SOURCE_OFFSET_HEADER},
 *       {@value #SOURCE_TIMESTAMP_HEADER}: where the input record was read and its Kafka timestamp;</li>
 *   <li>{@value #TRUNCATED_HEADER}, {@value #RESTAMPED_HEADER}: only when the dead letter had to be cut to
 *       the topic's size limit or restamped to a timestamp it accepts ({@link io.weir.streams.dsl.LateRecord}). A dead letter
 *       that does not fit even cut is dropped, counted as {@code side-output-records-dropped} and logged;
 *       the handler's decision is never turned into a failure by the dead-letter topic.</li>
 * </ul>
 * Text in UTF-8, numbers as decimal strings. The record's timestamp is the input record's Kafka
 * timestamp. A record derived from a window result has no input record: its dead letter has a null
 * key and value, no source headers, and the result's event time as its timestamp.
 */
public final class DeadLetterRecord {

    private DeadLetterRecord() {}

    /** Header: why the record failed, a reason's name or {@link #PROCESSING_REASON}. */
    public static final String REASON_HEADER = "weir.error.reason";
    /** Header: the name of the operator that failed. */
    public static final String OPERATOR_HEADER = "weir.error.operator";
    /** The reason header's value for a {@link ProcessingError}. */
    public static final String PROCESSING_REASON = "PROCESSING";

    /** Header: the class name of the exception that caused the failure. */
    public static final String EXCEPTION_HEADER = "weir.error.exception";
    /** Header: the error's message. */
    public static final String MESSAGE_HEADER = "weir.error.message";
    /** Header: the topic the record could not be produced to (production errors only). */
    public static final String SINK_TOPIC_HEADER = "weir.error.sink.topic";
    /** Header: the topic the input record was read from. */
    public static final String SOURCE_TOPIC_HEADER = "weir.source.topic";
    /** Header: the partition the input record was read from. */
    public static final String SOURCE_PARTITION_HEADER = "weir.source.partition";
    /** Header: the input record's offset. */
    public static final String SOURCE_OFFSET_HEADER = "weir.source.offset";
    /** Header: the input record's Kafka timestamp, in epoch milliseconds. */
    public static final String SOURCE_TIMESTAMP_HEADER = "weir.source.timestamp";
    /**
     * Header, when the dead letter's key or value was cut to fit the topic's size limit: their lengths before
     * (see {@link io.weir.streams.dsl.LateRecord#TRUNCATED_HEADER}).
     */
    public static final String TRUNCATED_HEADER = "weir.truncated";
    /**
     * Header, when the topic would refuse the dead letter's timestamp: the timestamp it had (see {@link
     * io.weir.streams.dsl.LateRecord#RESTAMPED_HEADER}).
     */
    public static final String RESTAMPED_HEADER = "weir.restamped";
}
