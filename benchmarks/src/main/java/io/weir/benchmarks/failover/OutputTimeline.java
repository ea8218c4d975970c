package io.weir.benchmarks.failover;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * When committed output arrived, per partition: a {@code read_committed} reader follows the output
 * topic from its start and notes, for every poll that returned records of a partition, the time. A
 * partition's pause is the longest time between two such arrivals: under steady input each task
 * commits output every commit interval, so a pause longer than that is the task standing still. Owns
 * its consumer and reader thread.
 */
final class OutputTimeline implements AutoCloseable {

    /** The longest pause of any partition in a span, and which partition. */
    record Pause(int partition, double seconds, long endNanos) {}

    /** An arrival of output on a partition, at {@code nanos} ({@link System#nanoTime()}). */
    record Arrival(int partition, long nanos) {}

    private final List<List<Long>> arrivals = new ArrayList<>();
    private final AtomicLong records = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean running = true;

    OutputTimeline(String bootstrap, String topic, int partitions) {
        for (int p = 0; p < partitions; p++) {
            arrivals.add(new ArrayList<>());
        }
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        50_000),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        List<TopicPartition> all = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            all.add(new TopicPartition(topic, p));
        }
        consumer.assign(all);
        consumer.seekToBeginning(all);
        thread = new Thread(() -> follow(consumer), "failover-output-reader");
        thread.setDaemon(true);
        thread.start();
    }

    private void follow(KafkaConsumer<byte[], byte[]> consumer) {
        try (consumer) {
            while (running) {
                ConsumerRecords<byte[], byte[]> polled = consumer.poll(Duration.ofMillis(20));
                long now = System.nanoTime();
                for (TopicPartition tp : polled.partitions()) {
                    List<Long> times = arrivals.get(tp.partition());
                    synchronized (times) {
                        times.add(now);
                    }
                    records.addAndGet(polled.records(tp).size());
                }
            }
        } catch (RuntimeException e) {
            failure.set(e);
        }
    }

    /** Output records read so far. */
    long records() {
        check();
        return records.get();
    }

    /** Whether every partition had output in the last {@code window}. */
    boolean allFlowing(Duration window) {
        return flowing(window).size() == arrivals.size();
    }

    /** The partitions that had output in the last {@code window}. */
    Set<Integer> flowing(Duration window) {
        check();
        long since = System.nanoTime() - window.toNanos();
        Set<Integer> flowing = new TreeSet<>();
        for (int p = 0; p < arrivals.size(); p++) {
            List<Long> times = arrivals.get(p);
            synchronized (times) {
                if (!times.isEmpty() && times.get(times.size() - 1) >= since) {
                    flowing.add(p);
                }
            }
        }
        return flowing;
    }

    /**
     * When the last of {@code partitions} had output after {@code fromNanos}: the latest of their first
     * arrivals after it; {@code fromNanos} itself, on partition -1, for no partitions.
     *
     * @throws IllegalStateException if one of them had none yet
     */
    Arrival resumed(Set<Integer> partitions, long fromNanos) {
        check();
        Arrival last = new Arrival(-1, fromNanos);
        for (int p : partitions) {
            List<Long> times = arrivals.get(p);
            long first = -1;
            synchronized (times) {
                for (long t : times) {
                    if (t > fromNanos) {
                        first = t;
                        break;
                    }
                }
            }
            if (first < 0) {
                throw new IllegalStateException("No output on partition " + p + " yet");
            }
            if (first > last.nanos()) {
                last = new Arrival(p, first);
            }
        }
        return last;
    }

    /**
     * The longest pause of any partition between {@code fromNanos} and {@code toNanos}: the time between
     * consecutive arrivals (the first counted from the last arrival before {@code fromNanos}).
     */
    Pause longestPause(long fromNanos, long toNanos) {
        Set<Integer> all = new TreeSet<>();
        for (int p = 0; p < arrivals.size(); p++) {
            all.add(p);
        }
        return longestPause(all, fromNanos, toNanos);
    }

    /** The longest pause of any of {@code partitions} between {@code fromNanos} and {@code toNanos}, as above. */
    Pause longestPause(Set<Integer> partitions, long fromNanos, long toNanos) {
        check();
        Pause longest = new Pause(-1, 0, fromNanos);
        for (int p : partitions) {
            List<Long> times = arrivals.get(p);
            synchronized (times) {
                long previous = fromNanos;
                for (long t : times) {
                    if (t <= fromNanos) {
                        previous = t;
                        continue;
                    }
                    if (t > toNanos) {
                        break;
                    }
                    double gap = (t - previous) / 1e9;
                    if (gap > longest.seconds()) {
                        longest = new Pause(p, gap, t);
                    }
                    previous = t;
                }
            }
        }
        return longest;
    }

    private void check() {
        Throwable f = failure.get();
        if (f != null) {
            throw new IllegalStateException("Reading the output failed", f);
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
