package io.weir.benchmarks.runtime;

import org.apache.kafka.clients.consumer.ConsumerConfig;

import java.time.Duration;
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

    static Read read(String bootstrap, String topic) throws TimeoutException {
        long[] first = {0};
        long[] records = {0};
        ReadCommitted.toEnd(
                bootstrap,
                topic,
                Map.of(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024),
                TIMEOUT,
                polled -> {
                    if (first[0] == 0 && !polled.isEmpty()) {
                        first[0] = System.nanoTime();
                    }
                    records[0] += polled.count();
                });
        return new Read(records[0], (System.nanoTime() - first[0]) / 1e9);
    }
}
