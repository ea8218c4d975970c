package io.weir.examples;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * Synthetic input of a runnable example. {@link ExampleRunner} calls it from one thread, about every 100 ms,
 * with the wall-clock time and the number of records due since the last call.
 */
interface InputGenerator {

    /** The records to write now: {@code due} of them, give or take what the example adds (repeats, profiles). */
    List<ProducerRecord<byte[], byte[]>> next(long now, int due);

    /** Makes the generator of one run. */
    @FunctionalInterface
    interface Factory {
        /**
         * A generator for one run.
         *
         * @param rate     the input records per second the run writes
         * @param duration how long the run lasts, unless stopped early
         */
        InputGenerator create(long seed, int rate, Duration duration);
    }

    /** A record of {@code topic} with a string key, {@code value} serialized, and {@code timestamp} as its Kafka timestamp. */
    static <T> ProducerRecord<byte[], byte[]> record(
            String topic, String key, long timestamp, T value, Serializer<T> serializer) {
        return new ProducerRecord<>(
                topic, null, timestamp, key.getBytes(StandardCharsets.UTF_8), serializer.serialize(topic, value));
    }
}
