package io.weir.benchmarks.runtime;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeoutException;

/**
 * Reads a table's output topic (String keys, Long values, a null value deletes) from its beginning as
 * a {@code read_committed} consumer ({@link TopicFollower}), keeping the latest value per key, and
 * tells when those equal {@code expected}: the moment the app's output reflects its whole input.
 * Started before the app, closed after.
 */
final class LatestValues implements AutoCloseable {

    private final Map<String, Long> expected;
    private final TopicFollower<String, Long> follower;
    private final Object lock = new Object();
    private final Map<String, Long> latest = new HashMap<>();
    private int matching;
    private long records;
    private long matchedNanos;

    LatestValues(String bootstrap, String topic, int partitionCount, Map<String, Long> expected) {
        this.expected = expected;
        follower = new TopicFollower<>(
                bootstrap,
                topic,
                partitionCount,
                new StringDeserializer(),
                new LongDeserializer(),
                100_000,
                this::polled);
    }

    private void polled(ConsumerRecords<String, Long> polled, long now) {
        synchronized (lock) {
            for (ConsumerRecord<String, Long> r : polled) {
                apply(r.key(), r.value());
            }
            if (matchedNanos == 0 && matching == expected.size() && latest.size() == expected.size()) {
                matchedNanos = now;
            }
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
            follower.checkHealthy();
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
        follower.close();
    }
}
