package io.weir.streams.dsl;

import io.weir.streams.errors.DeadLetterRecord;
import io.weir.streams.time.Window;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The shape of records on a late-data side-output topic ({@code lateRecordsTo(topic)}): the original
 * input record's key and value bytes and headers, exactly as consumed, plus these headers:
 * <ul>
 *   <li>{@value #REASON_HEADER}: {@code LATE} (every window it belongs to was past its allowed
 *       lateness), {@code FUTURE_TIMESTAMP} (its event time was beyond the maximum future skew) or
 *       {@code BEFORE_TABLE_HISTORY} (a stream record joined as of its event time with a versioned table
 *       whose history no longer reaches back to it);</li>
 *   <li>{@value #WINDOW_START_HEADER} and {@value #WINDOW_END_HEADER}: one pair per window that refused
 *       it, ordered by start then end (LATE only; read them with {@link #refusedWindows});</li>
 *   <li>{@value #WATERMARK_HEADER}: the operator's watermark when the record arrived (for {@code
 *       BEFORE_TABLE_HISTORY}, the table's);</li>
 *   <li>{@value #EVENT_TIME_HEADER}: the record's event time;</li>
 *   <li>{@value #SOURCE_TOPIC_HEADER}, {@value #SOURCE_PARTITION_HEADER}, {@value #SOURCE_OFFSET_HEADER},
 *       {@value #SOURCE_TIMESTAMP_HEADER}: where it was read, and its Kafka timestamp;</li>
 *   <li>{@value #TRUNCATED_HEADER}, {@value #RESTAMPED_HEADER}: only when the record had to be cut or
 *       restamped to be accepted by the topic (a record that does not fit even with its key and value
 *       cut is dropped and counted as {@code side-output-records-dropped}).</li>
 * </ul>
 * Numbers are decimal strings in UTF-8. The record's timestamp is its event time.
 *
 * <p>Each refused record is written once: a record in several hopping windows is written only when
 * every one of them refused it, naming them all; a record that one of its windows took is not written,
 * though each window that refused it counts it in {@code late-records-dropped} (as Flink's window
 * operator sends an element to its late side output only when no window took it). A record derived
 * from another operator's window result has no input record: it is written with a null key and value
 * and without the source headers.
 */
public final class LateRecord {

    private LateRecord() {}

    /** Why a record went to the side output. */
    public enum Reason {
        /**
         * Every window the record belongs to was past its allowed lateness (or, for joins and deduplication,
         * the watermark had passed what the record could still take part in).
         */
        LATE,
        /** The record's event time was further ahead of processing time than the maximum future skew. */
        FUTURE_TIMESTAMP,
        /**
         * A stream record joined as of its event time with a versioned table whose history no longer reaches
         * back to it.
         */
        BEFORE_TABLE_HISTORY
    }

    /** Header: the {@link Reason} name. */
    public static final String REASON_HEADER = "weir.late.reason";
    /** Header, once per refusing window: the window's start, in epoch milliseconds. */
    public static final String WINDOW_START_HEADER = "weir.late.window.start";
    /** Header, once per refusing window: the window's end (exclusive), in epoch milliseconds. */
    public static final String WINDOW_END_HEADER = "weir.late.window.end";
    /** Header: the operator's watermark when the record arrived (the table's, for {@code BEFORE_TABLE_HISTORY}). */
    public static final String WATERMARK_HEADER = "weir.late.watermark";
    /** Header: the record's event time, in epoch milliseconds. */
    public static final String EVENT_TIME_HEADER = "weir.late.event.time";
    /** Header: the topic the input record was read from. */
    public static final String SOURCE_TOPIC_HEADER = DeadLetterRecord.SOURCE_TOPIC_HEADER;
    /** Header: the partition the input record was read from. */
    public static final String SOURCE_PARTITION_HEADER = DeadLetterRecord.SOURCE_PARTITION_HEADER;
    /** Header: the input record's offset. */
    public static final String SOURCE_OFFSET_HEADER = DeadLetterRecord.SOURCE_OFFSET_HEADER;
    /** Header: the input record's Kafka timestamp, in epoch milliseconds. */
    public static final String SOURCE_TIMESTAMP_HEADER = DeadLetterRecord.SOURCE_TIMESTAMP_HEADER;
    /**
     * On a side-output or dead-letter record whose key or value was cut to fit the topic's size limit:
     * their lengths before, {@code key=<bytes>;value=<bytes>} (-1 for null).
     */
    public static final String TRUNCATED_HEADER = DeadLetterRecord.TRUNCATED_HEADER;
    /**
     * On a side-output or dead-letter record whose timestamp the topic would refuse (its broker's
     * {@code message.timestamp.*.max.ms}): the timestamp it had; the record is stamped with the nearest
     * one the topic accepts instead.
     */
    public static final String RESTAMPED_HEADER = DeadLetterRecord.RESTAMPED_HEADER;

    /**
     * The windows that refused a side-output record, from its headers; empty for FUTURE_TIMESTAMP.
     *
     * @param headers the headers of a record read from a late-data topic
     * @return the windows, in header order (by start, then end)
     */
    public static List<Window> refusedWindows(Headers headers) {
        List<Window> windows = new ArrayList<>();
        Iterator<Header> starts = headers.headers(WINDOW_START_HEADER).iterator();
        Iterator<Header> ends = headers.headers(WINDOW_END_HEADER).iterator();
        while (starts.hasNext() && ends.hasNext()) {
            windows.add(new Window(number(starts.next()), number(ends.next())));
        }
        return windows;
    }

    private static long number(Header header) {
        return Long.parseLong(new String(header.value(), StandardCharsets.UTF_8));
    }
}
