package io.weir.benchmarks.runtime;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads an output topic from its beginning as a {@code read_committed} consumer, on a thread of its
 * own, and notes when each record became visible: {@link System#nanoTime()} as the poll that returned
 * it came back. Started before the app, stopped with {@link #close()} after it caught up.
 */
final class OutputWatcher implements AutoCloseable {

    /** One output record and when it became visible. */
    record Seen(byte[] key, byte[] value, long visibleNanos) {}

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> partitions = new ArrayList<>();
    private final List<Seen> seen = new ArrayList<>();
    private final Map<TopicPartition, Long> positions = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile @Nullable Throwable error;

    OutputWatcher(String bootstrap, String topic, int partitionCount) {
        consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        // Everything fetched comes back from one poll: with the default 500 per poll, the records
                        // of a burst (10,000 panes when a window closes) would be seen one slice after another.
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        1_000_000),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        for (int p = 0; p < partitionCount; p++) {
            partitions.add(new TopicPartition(topic, p));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        thread = new Thread(this::run, topic + "-watcher");
        thread.start();
    }

    private void run() {
        try {
            while (running) {
                Iterable<ConsumerRecord<byte[], byte[]>> records = consumer.poll(Duration.ofMillis(100));
                long now = System.nanoTime();
                synchronized (seen) {
                    for (ConsumerRecord<byte[], byte[]> r : records) {
                        seen.add(new Seen(r.key(), r.value(), now));
                    }
                }
                for (TopicPartition p : partitions) {
                    positions.put(p, consumer.position(p));
                }
            }
        } catch (WakeupException e) {
            if (running) {
                error = e;
            }
        } catch (Throwable e) {
            error = e;
        } finally {
            consumer.close();
        }
    }

    /** Whether it has read up to {@code ends} in every partition. */
    boolean reached(Map<TopicPartition, Long> ends) {
        if (error != null) {
            throw new IllegalStateException("Reading the output failed: " + error, error);
        }
        return ends.entrySet().stream().allMatch(e -> positions.getOrDefault(e.getKey(), 0L) >= e.getValue());
    }

    /** Everything seen so far, in the order seen. */
    List<Seen> seen() {
        synchronized (seen) {
            return List.copyOf(seen);
        }
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
