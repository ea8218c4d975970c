package io.weir.benchmarks.runtime;

import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads a topic from its beginning as a {@code read_committed} consumer, on a thread of its own, and
 * hands the records of each poll to a sink with {@link System#nanoTime()} as the poll came back (when
 * they became visible to a reader). Owns its consumer and thread; {@link #close()} stops both.
 */
final class TopicFollower<K, V> implements AutoCloseable {

    /** Takes what one poll returned; called on the follower's thread only. */
    @FunctionalInterface
    interface Sink<K, V> {
        void polled(ConsumerRecords<K, V> records, long visibleNanos);
    }

    private final KafkaConsumer<K, V> consumer;
    private final List<TopicPartition> partitions = new ArrayList<>();
    private final Map<TopicPartition, Long> positions = new ConcurrentHashMap<>();
    private final Sink<K, V> sink;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile @Nullable Throwable error;

    /** @param maxPollRecords records per poll: large, so a burst is seen in one poll rather than in slices */
    TopicFollower(
            String bootstrap,
            String topic,
            int partitionCount,
            Deserializer<K> keys,
            Deserializer<V> values,
            int maxPollRecords,
            Sink<K, V> sink) {
        this.sink = sink;
        consumer = new KafkaConsumer<>(ReadCommitted.config(bootstrap, maxPollRecords, Map.of()), keys, values);
        for (int p = 0; p < partitionCount; p++) {
            partitions.add(new TopicPartition(topic, p));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        thread = new Thread(this::run, topic + "-follower");
        thread.start();
    }

    private void run() {
        try {
            while (running) {
                ConsumerRecords<K, V> records = consumer.poll(Duration.ofMillis(100));
                sink.polled(records, System.nanoTime());
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

    /** Throws what stopped the follower, if anything did. */
    void checkHealthy() {
        Throwable failure = error;
        if (failure != null) {
            throw new IllegalStateException("Reading the output failed: " + failure, failure);
        }
    }

    /** Whether it has read up to {@code ends} in every partition. */
    boolean reached(Map<TopicPartition, Long> ends) {
        checkHealthy();
        return ends.entrySet().stream().allMatch(e -> positions.getOrDefault(e.getKey(), 0L) >= e.getValue());
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
