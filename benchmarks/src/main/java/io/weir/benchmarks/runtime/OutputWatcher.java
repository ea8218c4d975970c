package io.weir.benchmarks.runtime;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads an output topic from its beginning as a {@code read_committed} consumer ({@link
 * TopicFollower}) and notes when each record became visible: {@link System#nanoTime()} as the poll
 * that returned it came back. Started before the app, stopped with {@link #close()} after it caught up.
 */
final class OutputWatcher implements AutoCloseable {

    /** One output record and when it became visible. */
    record Seen(byte[] key, byte[] value, long visibleNanos) {}

    private final List<Seen> seen = new ArrayList<>();
    private final TopicFollower<byte[], byte[]> follower;

    OutputWatcher(String bootstrap, String topic, int partitionCount) {
        // Everything fetched comes back from one poll: with the default 500 per poll, the records of a
        // burst (10,000 panes when a window closes) would be seen one slice after another.
        follower = new TopicFollower<>(
                bootstrap,
                topic,
                partitionCount,
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer(),
                1_000_000,
                this::polled);
    }

    private void polled(ConsumerRecords<byte[], byte[]> records, long now) {
        synchronized (seen) {
            for (ConsumerRecord<byte[], byte[]> r : records) {
                seen.add(new Seen(r.key(), r.value(), now));
            }
        }
    }

    /** Whether it has read up to {@code ends} in every partition. */
    boolean reached(Map<TopicPartition, Long> ends) {
        return follower.reached(ends);
    }

    /** Everything seen so far, in the order seen. */
    List<Seen> seen() {
        synchronized (seen) {
            return List.copyOf(seen);
        }
    }

    @Override
    public void close() {
        follower.close();
    }
}
