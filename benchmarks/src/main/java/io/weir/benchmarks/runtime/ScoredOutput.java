package io.weir.benchmarks.runtime;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * Reads {@link AsyncBenchmark}'s output with {@code read_committed}: record {@code i} of the input has key
 * {@code "k" + i % keys} and value {@code i}, its answer is {@link ScoringService#answer}. Notes when each
 * answer became visible, and checks that the output holds each answer exactly once and each key's answers in
 * the order of its input.
 */
final class ScoredOutput implements AutoCloseable {

    private final int records;
    private final int keys;
    private final TopicFollower<String, String> follower;
    private final long[] visibleNanos;
    private final Map<String, Integer> lastOfKey = new HashMap<>();
    private int count;
    private int duplicates;
    private int outOfOrder;
    private int foreign;

    ScoredOutput(String bootstrap, String topic, int partitions, int records, int keys) {
        this.records = records;
        this.keys = keys;
        this.visibleNanos = new long[records];
        this.follower = new TopicFollower<>(
                bootstrap,
                topic,
                partitions,
                new StringDeserializer(),
                new StringDeserializer(),
                100_000,
                this::polled);
    }

    private synchronized void polled(ConsumerRecords<String, String> polled, long now) {
        for (ConsumerRecord<String, String> r : polled) {
            count++;
            int i = index(r.value());
            if (i < 0 || i >= records || !r.key().equals(AsyncBenchmark.key(i, keys))) {
                foreign++;
                continue;
            }
            if (visibleNanos[i] != 0) {
                duplicates++;
            }
            visibleNanos[i] = now;
            Integer last = lastOfKey.put(r.key(), i);
            if (last != null && last > i) {
                outOfOrder++;
            }
        }
        notifyAll();
    }

    private static int index(String value) {
        try {
            return Integer.parseInt(value.substring(ScoringService.answer("").length()));
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /**
     * Waits until {@code records} answers were read.
     *
     * @return {@link System#nanoTime()} when the last of them was read
     */
    synchronized long awaitAll(StreamingApp app, Duration timeout) throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (count < records) {
            follower.checkHealthy();
            app.checkHealthy();
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TimeoutException(count + " of " + records + " answers read within " + timeout);
            }
            wait(Math.min(100, Math.max(1, left / 1_000_000)));
        }
        return Arrays.stream(visibleNanos).max().orElse(0);
    }

    /** Reads up to {@code ends}, then throws unless every answer is there once and each key's in order. */
    void checkTo(Map<TopicPartition, Long> ends, Duration timeout) throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!follower.reached(ends)) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("The output was not read to its end " + ends + " within " + timeout);
            }
            Thread.sleep(20);
        }
        synchronized (this) {
            long missing = Arrays.stream(visibleNanos).filter(t -> t == 0).count();
            if (count != records || missing > 0 || duplicates > 0 || outOfOrder > 0 || foreign > 0) {
                throw new WrongOutput(String.format(
                        "%d answers for %d records: %d missing, %d duplicated, %d out of their key's order, "
                                + "%d not answers of the input",
                        count, records, missing, duplicates, outOfOrder, foreign));
            }
        }
    }

    /** When answer {@code i} became visible ({@link System#nanoTime()}). */
    synchronized long visibleNanos(int i) {
        return visibleNanos[i];
    }

    @Override
    public void close() {
        follower.close();
    }
}
