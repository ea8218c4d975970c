package io.weir.streams.dsl;

import io.weir.streams.errors.ProductionErrorHandler;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.util.Objects;
import java.util.Optional;

/**
 * How records are written to a topic. Serdes left unset are taken from the stream when it knows them
 * (its source's serdes, or a windowed result's); a stream whose serdes are unknown at a sink fails
 * at build time naming the topic. Records that cannot be produced (a serializer throws, a record is
 * too large for the topic) go to the error handler, {@link ProductionErrorHandler#fail()} by default.
 * Immutable.
 */
public final class Produced<K, V> {

    private final @Nullable Serde<K> keySerde;
    private final @Nullable Serde<V> valueSerde;
    private final ProductionErrorHandler errorHandler;
    private final @Nullable StreamPartitioner<? super K, ? super V> partitioner;

    private Produced(
            @Nullable Serde<K> keySerde,
            @Nullable Serde<V> valueSerde,
            ProductionErrorHandler errorHandler,
            @Nullable StreamPartitioner<? super K, ? super V> partitioner) {
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.errorHandler = errorHandler;
        this.partitioner = partitioner;
    }

    /**
     * These serdes (null: taken from the stream).
     *
     * @param <K> the key type
     * @param <V> the value type
     * @param keySerde serializes the keys; null to take the stream's
     * @param valueSerde serializes the values; null to take the stream's
     * @return a sink description with these serdes, Kafka's default partitioner and the failing error handler
     */
    public static <K, V> Produced<K, V> with(@Nullable Serde<K> keySerde, @Nullable Serde<V> valueSerde) {
        return new Produced<>(keySerde, valueSerde, ProductionErrorHandler.fail(), null);
    }

    /**
     * Serdes from the stream.
     *
     * @param <K> the key type
     * @param <V> the value type
     * @return a sink description with the stream's serdes, Kafka's default partitioner and the failing error
     *     handler
     */
    public static <K, V> Produced<K, V> inferred() {
        return new Produced<>(null, null, ProductionErrorHandler.fail(), null);
    }

    /**
     * What to do with records this sink cannot produce, e.g. {@code
     * ProductionErrorHandler.deadLetterTo("alerts-dlq")}.
     *
     * @param handler decides, per record that cannot be produced, whether to fail, skip or dead-letter it
     * @return a copy with that handler
     */
    public Produced<K, V> withErrorHandler(ProductionErrorHandler handler) {
        return new Produced<>(keySerde, valueSerde, Objects.requireNonNull(handler, "handler"), partitioner);
    }

    /**
     * Chooses each record's partition with {@code partitioner} instead of Kafka's default (murmur2 of
     * the serialized key). A stream grouped or joined downstream expects its key's partition: use this
     * only for topics read by others, or partition as the default would.
     *
     * @param partitioner chooses each record's partition
     * @return a copy with that partitioner
     */
    public Produced<K, V> withPartitioner(StreamPartitioner<? super K, ? super V> partitioner) {
        return new Produced<>(keySerde, valueSerde, errorHandler, Objects.requireNonNull(partitioner, "partitioner"));
    }

    /**
     * The partitioner; empty for Kafka's default.
     *
     * @return the partitioner, if set
     */
    public Optional<StreamPartitioner<? super K, ? super V>> partitioner() {
        return Optional.ofNullable(partitioner);
    }

    /**
     * The key serde; empty when it is taken from the stream.
     *
     * @return the key serde, if set
     */
    public Optional<Serde<K>> keySerde() {
        return Optional.ofNullable(keySerde);
    }

    /**
     * The value serde; empty when it is taken from the stream.
     *
     * @return the value serde, if set
     */
    public Optional<Serde<V>> valueSerde() {
        return Optional.ofNullable(valueSerde);
    }

    /**
     * What happens to records this sink cannot produce.
     *
     * @return the handler; {@link ProductionErrorHandler#fail()} unless set otherwise
     */
    public ProductionErrorHandler errorHandler() {
        return errorHandler;
    }
}
