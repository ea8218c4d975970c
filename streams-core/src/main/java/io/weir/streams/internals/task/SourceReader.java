package io.weir.streams.internals.task;

import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.errors.RecordError;
import io.weir.streams.errors.RecordErrorHandler;
import io.weir.streams.internals.Redaction;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.processor.ErrorOutcome;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.processor.RecordCollector;
import io.weir.streams.internals.processor.SourceInfo;
import io.weir.streams.internals.processor.WatermarkRecords;
import io.weir.streams.internals.state.UnknownFormatException;
import io.weir.streams.internals.topology.SourceSpec;
import io.weir.streams.time.TimestampExtractor;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.common.serialization.Deserializer;
import org.jspecify.annotations.Nullable;

/**
 * Turns one source topic's raw records into typed records with event times, applying the source's
 * error handler to records whose key, value or event time cannot be read (a dead letter goes through
 * the task's collector, so it is part of the task's output; a record in a format version of Weir's this
 * version does not read fails the thread instead, {@link UnknownFormatException}), and flagging event times
 * beyond the maximum future skew. Single-threaded.
 */
final class SourceReader<K, V> {

    private final SourceSpec spec;
    private final Deserializer<K> keyDeserializer;
    private final Deserializer<V> valueDeserializer;
    private final TimestampExtractor<K, V> extractor;
    private final RecordErrorHandler handler;
    private final long maxFutureSkew;
    private final Counter consumed;
    private final ErrorOutcome errors;

    /** @param defaultMaxFutureSkew the future skew of a source whose strategy sets none (ms; -1: none) */
    @SuppressWarnings("unchecked")
    SourceReader(SourceSpec spec, TaskMetrics metrics, RecordCollector collector, long defaultMaxFutureSkew) {
        this.spec = spec;
        Consumed<K, V> c = (Consumed<K, V>) spec.consumed();
        this.keyDeserializer = c.keySerde().deserializer();
        this.valueDeserializer = c.valueSerde().deserializer();
        this.extractor = c.timestampExtractor();
        this.handler = c.errorHandler();
        // A repartition topic's records were judged where they were first read: the verdict travels as a flag.
        WatermarkStrategy strategy = c.watermarkStrategy();
        this.maxFutureSkew = spec.repartition()
                ? -1
                : strategy.futureSkewSet()
                        ? strategy.maxFutureSkew().map(TimeMath::millis).orElse(-1L)
                        : defaultMaxFutureSkew;
        this.consumed = metrics.counter(spec.nodeName(), WeirMetrics.RECORDS_CONSUMED);
        // A record the reader refuses is not read at all, so it never reaches the watermark anyway.
        this.errors = new ErrorOutcome(spec.nodeName(), collector, metrics, WeirMetrics.RECORDS_SKIPPED, () -> {});
    }

    /**
     * The watermark mark a record of this repartition source carries, or null when the record claims to
     * be one but is not (then the source's error handler has decided, reason {@code INVALID_WATERMARK_MARK}).
     *
     * @param writers how many tasks write this topic
     * @throws RecordError when the handler chose to fail
     */
    WatermarkRecords.@Nullable Mark readMark(RawRecord raw, int writers) {
        try {
            return WatermarkRecords.read(raw.key(), raw.value(), raw.headers(), writers);
        } catch (IllegalArgumentException e) {
            reject(raw, RecordError.Reason.INVALID_WATERMARK_MARK, e.getMessage(), null);
            return null;
        }
    }

    /** The name of the source node this reader is. */
    String nodeName() {
        return spec.nodeName();
    }

    /**
     * The typed record, or null when the record could not be read and the handler chose to skip it or
     * dead-letter it.
     *
     * @throws RecordError when the handler chose to fail
     */
    @Nullable
    Record<K, V> read(RawRecord raw, long processingTime) {
        consumed.increment();
        K key;
        V value;
        try {
            key = keyDeserializer.deserialize(raw.topic(), raw.headers(), raw.key());
        } catch (UnknownFormatException e) {
            // A newer instance's record (Weir's own format on a repartition topic), not bad data: never skipped.
            throw e;
        } catch (RuntimeException e) {
            return reject(raw, RecordError.Reason.KEY_DESERIALIZATION, Redaction.describe(e), e);
        }
        try {
            value = valueDeserializer.deserialize(raw.topic(), raw.headers(), raw.value());
        } catch (UnknownFormatException e) {
            throw e;
        } catch (RuntimeException e) {
            return reject(raw, RecordError.Reason.VALUE_DESERIALIZATION, Redaction.describe(e), e);
        }
        long eventTime;
        try {
            eventTime = extractor.extract(key, value, raw.timestamp());
        } catch (RuntimeException e) {
            return reject(
                    raw,
                    RecordError.Reason.INVALID_EVENT_TIME,
                    "the timestamp extractor failed: " + Redaction.describe(e),
                    e);
        }
        if (eventTime < 0) {
            return reject(raw, RecordError.Reason.INVALID_EVENT_TIME, "negative event time " + eventTime, null);
        }
        if (eventTime == Long.MAX_VALUE) {
            // The watermark's end of input: no window [start, end) can hold it.
            return reject(
                    raw,
                    RecordError.Reason.INVALID_EVENT_TIME,
                    "event time Long.MAX_VALUE, which stands for the end of input",
                    null);
        }
        // A table takes every update, so its records are never flagged for operators to refuse; the task
        // still keeps them out of the watermark (untimed).
        boolean future = (!spec.table() && beyondFutureSkew(eventTime, processingTime))
                || (spec.repartition() && WatermarkRecords.takeFutureFlag(raw.headers()));
        return new Record<>(key, value, eventTime, raw.headers(), source(raw, future));
    }

    /**
     * Whether {@code record}, read at {@code processingTime}, must not advance the watermark: it is beyond the
     * future skew (flagged, or for a table's record, which is never flagged, judged here).
     */
    boolean untimed(Record<?, ?> record, long processingTime) {
        return record.beyondFutureSkew() || (spec.table() && beyondFutureSkew(record.timestamp(), processingTime));
    }

    /** Whether {@code eventTime} is further ahead of {@code processingTime} than the source's maximum future skew. */
    private boolean beyondFutureSkew(long eventTime, long processingTime) {
        return maxFutureSkew >= 0 && TimeMath.minus(eventTime, maxFutureSkew) > processingTime;
    }

    private @Nullable Record<K, V> reject(
            RawRecord raw, RecordError.Reason reason, @Nullable String detail, @Nullable Throwable cause) {
        RecordError error = new RecordError(
                reason, raw.topic(), raw.partition(), raw.offset(), raw.key(), raw.value(), detail, cause);
        errors.apply(handler.handle(error), error, reason.name(), null, source(raw, false), raw.timestamp());
        return null;
    }

    private static SourceInfo source(RawRecord raw, boolean future) {
        return new SourceInfo(
                raw.topic(),
                raw.partition(),
                raw.offset(),
                raw.timestamp(),
                raw.key(),
                raw.value(),
                raw.headers(),
                future);
    }
}
