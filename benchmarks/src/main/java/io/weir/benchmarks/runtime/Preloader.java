package io.weir.benchmarks.runtime;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.function.IntToLongFunction;

/**
 * Writes a benchmark's input to its topic before anything is timed, as fast as the broker takes it:
 * String keys and values, the event time as the record timestamp, partitioned by the producer's
 * default partitioner (murmur2 of the key), so every key lives in one partition.
 */
final class Preloader {

    private Preloader() {}

    static void load(
            String bootstrap,
            String topic,
            int records,
            IntFunction<String> key,
            IntToLongFunction eventTime,
            String value) {
        load(bootstrap, topic, records, key, eventTime, i -> value);
    }

    /**
     * Writes {@code records} records, the {@code i}th with {@code key(i)} and {@code value(i)} at
     * {@code eventTime(i)}.
     */
    static void load(
            String bootstrap,
            String topic,
            int records,
            IntFunction<String> key,
            IntToLongFunction eventTime,
            IntFunction<String> value) {
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ProducerConfig.LINGER_MS_CONFIG,
                        20,
                        ProducerConfig.BATCH_SIZE_CONFIG,
                        256 * 1024),
                new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < records && failure.get() == null; i++) {
                // The callback handles the outcome; the future adds nothing.
                @SuppressWarnings("FutureReturnValueIgnored")
                var unused = producer.send(
                        new ProducerRecord<>(topic, null, eventTime.applyAsLong(i), key.apply(i), value.apply(i)),
                        (m, e) -> {
                            if (e != null) {
                                failure.compareAndSet(null, e);
                            }
                        });
            }
            producer.flush();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("Pre-loading " + topic + " failed: " + failure.get(), failure.get());
        }
    }
}
