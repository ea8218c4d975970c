package io.weir.streams.internals.runtime;

import io.weir.streams.StreamsConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;

import java.util.Map;

/**
 * The settings of the consumers that read whole topics outside the group (a thread's restore consumer,
 * the global tables' consumer): assigned by hand, {@code read_committed}, never committing, from the
 * earliest offset when a position is gone, in big batches.
 */
final class ReaderConsumers {

    private ReaderConsumers() {}

    static Map<String, Object> config(StreamsConfig config, String clientId) {
        Map<String, Object> reader = config.clientConfig(StreamsConfig.CONSUMER_PREFIX);
        reader.remove(ConsumerConfig.GROUP_ID_CONFIG);
        reader.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        reader.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        reader.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        // A topic that lost records past a store's offset while it was read: replay what is left, never
        // skip to the end (Kafka's default, latest).
        reader.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // Each poll becomes one store write: big batches.
        reader.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        // Topics are read from start to end: bigger fetches mean fewer round trips.
        reader.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024);
        return reader;
    }
}
