package io.weir.streams.dsl;

/**
 * The shape of records on a late-data side-output topic ({@code lateRecordsTo(topic)}): the original
 * input record's key and value bytes and headers, exactly as consumed, plus these headers:
 * <ul>
 *   <li>{@value #REASON_HEADER}: {@code LATE} (its window was past its allowed lateness) or
 *       {@code FUTURE_TIMESTAMP} (its event time was beyond the maximum future skew);</li>
 *   <li>{@value #WINDOW_START_HEADER} and {@value #WINDOW_END_HEADER}: the window it was refused
 *       from (LATE only; a record refused from several hopping windows appears once per window);</li>
 *   <li>{@value #WATERMARK_HEADER}: the operator's watermark when the record arrived;</li>
 *   <li>{@value #EVENT_TIME_HEADER}: the record's event time;</li>
 *   <li>{@value #SOURCE_TOPIC_HEADER}, {@value #SOURCE_PARTITION_HEADER}, {@value #SOURCE_OFFSET_HEADER},
 *       {@value #SOURCE_TIMESTAMP_HEADER}: where it was read, and its Kafka timestamp.</li>
 * </ul>
 * Numbers are decimal strings in UTF-8. The record's timestamp is its event time. A record derived
 * from another operator's window result has no input record: it is written with a null key and value
 * and without the source headers.
 */
public final class LateRecord {

    private LateRecord() {}

    /** Why a record went to the side output. */
    public enum Reason {
        LATE,
        FUTURE_TIMESTAMP
    }

    public static final String REASON_HEADER = "weir.late.reason";
    public static final String WINDOW_START_HEADER = "weir.late.window.start";
    public static final String WINDOW_END_HEADER = "weir.late.window.end";
    public static final String WATERMARK_HEADER = "weir.late.watermark";
    public static final String EVENT_TIME_HEADER = "weir.late.event.time";
    public static final String SOURCE_TOPIC_HEADER = "weir.source.topic";
    public static final String SOURCE_PARTITION_HEADER = "weir.source.partition";
    public static final String SOURCE_OFFSET_HEADER = "weir.source.offset";
    public static final String SOURCE_TIMESTAMP_HEADER = "weir.source.timestamp";
}
