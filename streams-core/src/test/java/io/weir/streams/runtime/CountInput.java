package io.weir.streams.runtime;

import io.weir.streams.test.kafka.KafkaBroker;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * Writes the input of a {@link WindowedCountApp} and computes what its output must be. Event times
 * are offsets from a window-aligned base in the recent past ({@link BaseTime}).
 *
 * @param partitions the input topic's partition count, for {@link #flush}
 */
record CountInput(KafkaBroker broker, String topic, int partitions, long base) {

    CountInput(KafkaBroker broker, String topic, int partitions) {
        this(broker, topic, partitions, BaseTime.recentPast());
    }

    /** Keys {@code k0 .. k<n-1>} drawn from a seeded random: the same seed, the same input. */
    static IntFunction<String> randomKeys(int n, long seed) {
        Random random = new Random(seed);
        return i -> "k" + random.nextInt(n);
    }

    /**
     * Produces {@code count} records, record {@code i} keyed {@code key.apply(i)}, event times spread
     * evenly over {@code [base + fromMs, base + fromMs + spanMs)}.
     *
     * @return the count each {@code key@windowStart} gets from these records
     */
    Map<String, Long> produce(int count, long fromMs, long spanMs, IntFunction<String> key) {
        Map<String, Long> expected = new TreeMap<>();
        AtomicReference<Exception> failed = new AtomicReference<>();
        try (KafkaProducer<String, String> producer = producer()) {
            for (int i = 0; i < count; i++) {
                String k = key.apply(i);
                long t = base + fromMs + (long) i * spanMs / count;
                producer.send(new ProducerRecord<>(topic, null, t, k, "v"), (metadata, e) -> {
                    if (e != null) {
                        failed.compareAndSet(null, e);
                    }
                });
                expected.merge(k + "@" + (t - t % WindowedCountApp.WINDOW), 1L, Long::sum);
            }
        }
        if (failed.get() != null) {
            throw new IllegalStateException("Producing the test input to " + topic + " failed", failed.get());
        }
        return expected;
    }

    /** One record at {@code base + atMs} to every partition, under {@link CommittedPanes#FLUSH_KEY}: closes earlier windows. */
    void flush(long atMs) {
        try (KafkaProducer<String, String> producer = producer()) {
            for (int p = 0; p < partitions; p++) {
                producer.send(new ProducerRecord<>(topic, p, base + atMs, CommittedPanes.FLUSH_KEY, "v"));
            }
        }
    }

    /** A record at {@code base + atMs} to one partition. */
    void send(int partition, long atMs, String key) {
        try (KafkaProducer<String, String> producer = producer()) {
            producer.send(new ProducerRecord<>(topic, partition, base + atMs, key, "v"));
        }
    }

    private KafkaProducer<String, String> producer() {
        return new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers(),
                        ProducerConfig.LINGER_MS_CONFIG,
                        5),
                new StringSerializer(),
                new StringSerializer());
    }
}
