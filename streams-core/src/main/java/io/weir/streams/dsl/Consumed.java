package io.weir.streams.dsl;

import io.weir.streams.RecordErrorHandler;
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

    /** Read keys and values with these serdes. */
    public static <K, V> Consumed<K, V> with(Serde<K> keySerde, Serde<V> valueSerde) {
        return new Consumed<>(
                Objects.requireNonNull(keySerde, "keySerde"),
                Objects.requireNonNull(valueSerde, "valueSerde"),
                TimestampExtractor.recordTimestamp(),
                WatermarkStrategy.forMonotonousTimestamps(),
                RecordErrorHandler.fail());
    }

    /** Event time from the value, e.g. {@code p -> p.paidAt().toEpochMilli()}. */
    public Consumed<K, V> withTimestamps(ToLongFunction<? super V> eventTime) {
        return withTimestampExtractor(TimestampExtractor.fromValue(eventTime));
    }

    public Consumed<K, V> withTimestampExtractor(TimestampExtractor<K, V> extractor) {
        return new Consumed<>(
                keySerde, valueSerde, Objects.requireNonNull(extractor, "extractor"), watermarkStrategy, errorHandler);
    }

    public Consumed<K, V> withWatermarks(WatermarkStrategy strategy) {
        return new Consumed<>(
                keySerde, valueSerde, timestampExtractor, Objects.requireNonNull(strategy, "strategy"), errorHandler);
    }

    /** What to do with records whose key, value or event time cannot be read. */
    public Consumed<K, V> withErrorHandler(RecordErrorHandler handler) {
        return new Consumed<>(
                keySerde,
                valueSerde,
                timestampExtractor,
                watermarkStrategy,
                Objects.requireNonNull(handler, "handler"));
    }

    public Serde<K> keySerde() {
        return keySerde;
    }

    public Serde<V> valueSerde() {
        return valueSerde;
    }

    public TimestampExtractor<K, V> timestampExtractor() {
        return timestampExtractor;
    }

    public WatermarkStrategy watermarkStrategy() {
        return watermarkStrategy;
    }

    public RecordErrorHandler errorHandler() {
        return errorHandler;
    }
}
