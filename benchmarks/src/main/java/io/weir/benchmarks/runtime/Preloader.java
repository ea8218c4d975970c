package io.weir.benchmarks.runtime;

import io.weir.benchmarks.FailFastSender;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import java.util.Map;
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
            FailFastSender<String, String> sender = new FailFastSender<>(producer, "Pre-loading " + topic);
            for (int i = 0; i < records; i++) {
                if (!sender.send(
                        new ProducerRecord<>(topic, null, eventTime.applyAsLong(i), key.apply(i), value.apply(i)))) {
                    break;
                }
            }
            sender.flush();
        }
    }
}
