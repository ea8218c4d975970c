package io.weir.streams.internals.task;

import io.weir.streams.RecordError;
import io.weir.streams.RecordErrorHandler;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.processor.WatermarkRecords;
import io.weir.streams.internals.processor.SourceInfo;
import io.weir.streams.internals.topology.SourceSpec;
import io.weir.streams.time.TimestampExtractor;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one source topic's raw records into typed records with event times, applying the source's
 * error handler to records whose key, value or event time cannot be read, and flagging event times
 * beyond the maximum future skew. Single-threaded.
 */
final class SourceReader<K, V> {

    private static final Logger log = LoggerFactory.getLogger(SourceReader.class);

    private final SourceSpec spec;
    private final Deserializer<K> keyDeserializer;
    private final Deserializer<V> valueDeserializer;
    private final TimestampExtractor<K, V> extractor;
    private final RecordErrorHandler handler;
    private final long maxFutureSkew;
    private final TaskMetrics.Counter consumed;
    private final TaskMetrics.Counter skipped;

    @SuppressWarnings("unchecked")
    SourceReader(SourceSpec spec, TaskMetrics metrics) {
        this.spec = spec;
        Consumed<K, V> c = (Consumed<K, V>) spec.consumed();
        this.keyDeserializer = c.keySerde().deserializer();
        this.valueDeserializer = c.valueSerde().deserializer();
        this.extractor = c.timestampExtractor();
        this.handler = c.errorHandler();
        this.maxFutureSkew = c.watermarkStrategy().maxFutureSkew().map(java.time.Duration::toMillis).orElse(-1L);
        this.consumed = metrics.counter(spec.nodeName(), WeirMetrics.RECORDS_CONSUMED);
        this.skipped = metrics.counter(spec.nodeName(), WeirMetrics.RECORDS_SKIPPED);
    }

    /**
     * The typed record, or null when the record could not be read and the handler chose to continue.
     *
     * @throws RecordError when the handler chose to fail
     */
    Record<K, V> read(RawRecord raw, long processingTime) {
        consumed.increment();
        K key;
        V value;
        try {
            key = keyDeserializer.deserialize(raw.topic(), raw.headers(), raw.key());
        } catch (RuntimeException e) {
            return reject(raw, RecordError.Reason.KEY_DESERIALIZATION, e.getMessage(), e);
        }
        try {
            value = valueDeserializer.deserialize(raw.topic(), raw.headers(), raw.value());
        } catch (RuntimeException e) {
            return reject(raw, RecordError.Reason.VALUE_DESERIALIZATION, e.getMessage(), e);
        }
        long eventTime;
        try {
            eventTime = extractor.extract(key, value, raw.timestamp());
        } catch (RuntimeException e) {
            return reject(raw, RecordError.Reason.INVALID_EVENT_TIME, "the timestamp extractor failed: " + e, e);
        }
        if (eventTime < 0) {
            return reject(raw, RecordError.Reason.INVALID_EVENT_TIME, "negative event time " + eventTime, null);
        }
        boolean future = (maxFutureSkew >= 0 && eventTime - maxFutureSkew > processingTime)
                || (spec.repartition() && WatermarkRecords.takeFutureFlag(raw.headers()));
        SourceInfo source = new SourceInfo(raw.topic(), raw.partition(), raw.offset(), raw.timestamp(),
                raw.key(), raw.value(), raw.headers(), future);
        return new Record<>(key, value, eventTime, raw.headers(), source);
    }

    private Record<K, V> reject(RawRecord raw, RecordError.Reason reason, String detail, Throwable cause) {
        RecordError error = new RecordError(reason, raw.topic(), raw.partition(), raw.offset(), raw.key(), raw.value(),
                detail, cause);
        if (handler.handle(error) == RecordErrorHandler.Decision.FAIL) {
            throw error;
        }
        skipped.increment();
        log.warn("Skipped a record: {} (source node {})", error.getMessage(), spec.nodeName());
        return null;
    }
}
