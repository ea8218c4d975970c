package io.weir.benchmarks.runtime;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeoutException;

/**
 * Reads a table's output topic (String keys, Long values, a null value deletes) from its beginning as
 * a {@code read_committed} consumer, on a thread of its own, keeping the latest value per key, and
 * tells when those equal {@code expected}: the moment the app's output reflects its whole input.
 * Started before the app, closed after.
 */
final class LatestValues implements AutoCloseable {

    private final Map<String, Long> expected;
    private final KafkaConsumer<String, Long> consumer;
    private final Thread thread;
    private final Object lock = new Object();
    private final Map<String, Long> latest = new HashMap<>();
    private int matching;
    private long records;
    private long matchedNanos;
    private volatile boolean running = true;
    private volatile @Nullable Throwable error;

    LatestValues(String bootstrap, String topic, int partitionCount, Map<String, Long> expected) {
        this.expected = expected;
        consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        100_000),
                new StringDeserializer(),
                new LongDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        for (int p = 0; p < partitionCount; p++) {
            partitions.add(new TopicPartition(topic, p));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        thread = new Thread(this::run, topic + "-latest");
        thread.start();
    }

    private void run() {
        try {
            while (running) {
                Iterable<ConsumerRecord<String, Long>> polled = consumer.poll(Duration.ofMillis(100));
                long now = System.nanoTime();
                synchronized (lock) {
                    for (ConsumerRecord<String, Long> r : polled) {
                        apply(r.key(), r.value());
                    }
                    if (matchedNanos == 0 && matching == expected.size() && latest.size() == expected.size()) {
                        matchedNanos = now;
                    }
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

    private void apply(String key, @Nullable Long value) {
        records++;
        Long before = value == null ? latest.remove(key) : latest.put(key, value);
        Long wanted = expected.get(key);
        if (wanted != null) {
            matching += (Objects.equals(wanted, value) ? 1 : 0) - (Objects.equals(wanted, before) ? 1 : 0);
        }
    }

    /**
     * Waits until the latest values equal {@code expected}, checking {@code app}'s health meanwhile.
     *
     * @return {@link System#nanoTime()} of the poll that made them equal
     */
    long awaitExpected(StreamingApp app, Duration timeout) throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Throwable failure = error;
            if (failure != null) {
                throw new IllegalStateException("Reading the output failed: " + failure, failure);
            }
            synchronized (lock) {
                if (matchedNanos != 0) {
                    return matchedNanos;
                }
            }
            app.checkHealthy();
            if (System.nanoTime() > deadline) {
                synchronized (lock) {
                    throw new TimeoutException("The output did not reach the expected values within " + timeout + ": "
                            + matching + " of " + expected.size() + " keys match, " + latest.size() + " keys read");
                }
            }
            Thread.sleep(20);
        }
    }

    /** Output records read so far. */
    long records() {
        synchronized (lock) {
            return records;
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
