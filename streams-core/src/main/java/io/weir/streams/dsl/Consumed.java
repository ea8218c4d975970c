package io.weir.streams.dsl;

import io.weir.streams.errors.RecordErrorHandler;
import io.weir.streams.time.TimestampExtractor;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.common.serialization.Serde;

import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * How a source topic is read: serdes, where each record's event time comes from, how the watermark
 * follows it, and what happens to records that cannot be read. Immutable.
 *
 * <p>Defaults: the Kafka record timestamp as event time; {@link WatermarkStrategy#forMonotonousTimestamps()}
 * (no delay, no idleness); {@link RecordErrorHandler#fail()}.
 */
public final class Consumed<K, V> {

    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;
    private final TimestampExtractor<K, V> timestampExtractor;
    private final WatermarkStrategy watermarkStrategy;
    private final RecordErrorHandler errorHandler;

    private Consumed(
            Serde<K> keySerde,
            Serde<V> valueSerde,
            TimestampExtractor<K, V> timestampExtractor,
            WatermarkStrategy watermarkStrategy,
            RecordErrorHandler errorHandler) {
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.timestampExtractor = timestampExtractor;
        this.watermarkStrategy = watermarkStrategy;
        this.errorHandler = errorHandler;
    }

    /**
     * Read keys and values with these serdes.
     *
     * @param <K> the key type
     * @param <V> the value type
     * @param keySerde deserializes the records' keys
     * @param valueSerde deserializes the records' values
     * @return a read with these serdes and the defaults
     */
    public static <K, V> Consumed<K, V> with(Serde<K> keySerde, Serde<V> valueSerde) {
        return new Consumed<>(
                Objects.requireNonNull(keySerde, "keySerde"),
                Objects.requireNonNull(valueSerde, "valueSerde"),
                TimestampExtractor.recordTimestamp(),
                WatermarkStrategy.forMonotonousTimestamps(),
                RecordErrorHandler.fail());
    }

    /**
     * Event time from the value, e.g. {@code p -> p.paidAt().toEpochMilli()}.
     *
     * @param eventTime gives a value's event time in epoch milliseconds; a negative one is an unreadable record
     * @return a copy with that event time
     */
    public Consumed<K, V> withTimestamps(ToLongFunction<? super V> eventTime) {
        return withTimestampExtractor(TimestampExtractor.fromValue(eventTime));
    }

    /**
     * Event time from the key, the value and the record's own timestamp, for when the value alone does not give
     * it ({@link #withTimestamps} is the common case). Replaces any earlier choice of event time.
     *
     * @param extractor gives each record's event time in epoch milliseconds
     * @return a copy with that extractor
     */
    public Consumed<K, V> withTimestampExtractor(TimestampExtractor<K, V> extractor) {
        return new Consumed<>(
                keySerde, valueSerde, Objects.requireNonNull(extractor, "extractor"), watermarkStrategy, errorHandler);
    }

    /**
     * How the watermark of the source's partitions follows their event times: its delay, idleness and maximum
     * future skew. Every read of one topic must give the same strategy.
     *
     * @param strategy the watermark strategy; by default {@link WatermarkStrategy#forMonotonousTimestamps()}
     * @return a copy with that strategy
     */
    public Consumed<K, V> withWatermarks(WatermarkStrategy strategy) {
        return new Consumed<>(
                keySerde, valueSerde, timestampExtractor, Objects.requireNonNull(strategy, "strategy"), errorHandler);
    }

    /**
     * What to do with records whose key, value or event time cannot be read.
     *
     * @param handler decides, per unreadable record, whether to fail, skip or dead-letter it; by default {@link
     *     RecordErrorHandler#fail()}
     * @return a copy with that handler
     */
    public Consumed<K, V> withErrorHandler(RecordErrorHandler handler) {
        return new Consumed<>(
                keySerde,
                valueSerde,
                timestampExtractor,
                watermarkStrategy,
                Objects.requireNonNull(handler, "handler"));
    }

    /**
     * The key serde.
     *
     * @return the serde that reads the records' keys
     */
    public Serde<K> keySerde() {
        return keySerde;
    }

    /**
     * The value serde.
     *
     * @return the serde that reads the records' values
     */
    public Serde<V> valueSerde() {
        return valueSerde;
    }

    /**
     * Where each record's event time comes from.
     *
     * @return the extractor; the record's own timestamp unless set otherwise
     */
    public TimestampExtractor<K, V> timestampExtractor() {
        return timestampExtractor;
    }

    /**
     * How the source's watermark follows its event times.
     *
     * @return the strategy; {@link WatermarkStrategy#forMonotonousTimestamps()} unless set otherwise
     */
    public WatermarkStrategy watermarkStrategy() {
        return watermarkStrategy;
    }

    /**
     * What happens to records that cannot be read.
     *
     * @return the handler; {@link RecordErrorHandler#fail()} unless set otherwise
     */
    public RecordErrorHandler errorHandler() {
        return errorHandler;
    }
}
