package io.weir.benchmarks.runtime;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/** How the benchmarks read topics: {@code read_committed} consumers outside any group, from the beginning. */
final class ReadCommitted {

    private ReadCommitted() {}

    /** A consumer's settings: {@code read_committed}, no group, {@code maxPollRecords} per poll, and {@code extra}. */
    static Map<String, Object> config(String bootstrap, int maxPollRecords, Map<String, Object> extra) {
        Map<String, Object> config = new HashMap<>(extra);
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, maxPollRecords);
        return config;
    }

    /**
     * Reads every partition of {@code topic} from its beginning to its end as of now, handing each
     * poll's records to {@code polled}.
     *
     * @throws TimeoutException if the end was not reached within {@code timeout}
     */
    static void toEnd(
            String bootstrap,
            String topic,
            Map<String, Object> extra,
            Duration timeout,
            Consumer<ConsumerRecords<byte[], byte[]>> polled)
            throws TimeoutException {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                config(bootstrap, 10_000, extra), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.getOrDefault(p, 0L))) {
                polled.accept(consumer.poll(Duration.ofMillis(100)));
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException("Reading " + topic + " to its end took more than " + timeout);
                }
            }
        }
    }
}
