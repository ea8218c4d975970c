package io.weir.benchmarks.runtime;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * A bare {@code read_committed} consumer, with the settings of Weir's restore consumer (10,000
 * records per poll, 8 MiB per partition fetch), reading a topic from its beginning to its end and
 * doing nothing with the records: the ceiling of any restore from that topic on this broker and
 * client, since a restore reads and decodes the same records and then also writes them.
 */
final class ChangelogReader {

    /** What one read took: timed from the first poll that returned records to the one that reached the end. */
    record Read(long records, double seconds) {

        double recordsPerSecond() {
            return records / seconds;
        }
    }

    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    private ChangelogReader() {}

    static Read read(String bootstrap, String topic, int partitionCount) throws TimeoutException {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false,
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        10_000,
                        ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG,
                        8 * 1024 * 1024),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < partitionCount; p++) {
                partitions.add(new TopicPartition(topic, p));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            long first = 0;
            long records = 0;
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.getOrDefault(tp, 0L))) {
                ConsumerRecords<byte[], byte[]> polled = consumer.poll(Duration.ofMillis(100));
                if (first == 0 && !polled.isEmpty()) {
                    first = System.nanoTime();
                }
                records += polled.count();
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException("Reading " + topic + " to its end took more than " + TIMEOUT);
                }
            }
            return new Read(records, (System.nanoTime() - first) / 1e9);
        }
    }
}
