package io.weir.benchmarks.runtime;

import io.weir.benchmarks.CountTopologies;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Properties;

/**
 * The windowed count on Kafka Streams 4.4, as its users would run it for this result: one instance,
 * one stream thread, {@code exactly_once_v2}, a commit every 100 ms, RocksDB store, the default 10 MiB
 * record cache. With {@code onWindowClose()} it writes one result per window and key once stream time
 * passes the window's end plus grace (it looks for closed windows at most once per second of
 * wall-clock time); with {@code suppress(untilWindowCloses)} the same, from a suppression buffer
 * (logged to a changelog of its own); with neither, the updates its record cache lets through: at
 * each commit, the latest count of every window changed since the previous one.
 */
final class KafkaStreamsApp implements StreamingApp {

    private final KafkaStreams streams;
    private volatile @Nullable Throwable error;

    KafkaStreamsApp(AppSetup setup, CountTopologies.KafkaStreamsEmit emit) {
        this(
                setup,
                CountTopologies.kafkaStreams(setup.input(), setup.output(), Materialized.StoreType.ROCKS_DB, emit),
                new Properties());
    }

    /** An instance running {@code topology} with the same settings, and {@code extra} added to them. */
    KafkaStreamsApp(AppSetup setup, Topology topology, Properties extra) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, setup.applicationId());
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, setup.broker().bootstrapServers());
        props.put(StreamsConfig.STATE_DIR_CONFIG, setup.stateDir().toString());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        props.putAll(extra);
        streams = new KafkaStreams(topology, props);
        streams.setUncaughtExceptionHandler(e -> {
            error = e;
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        RestoreProgress progress = setup.restore();
        streams.setGlobalStateRestoreListener(new StateRestoreListener() {
            @Override
            public void onRestoreStart(TopicPartition partition, String store, long startingOffset, long endingOffset) {
                progress.started();
            }

            @Override
            public void onBatchRestored(
                    TopicPartition partition, String store, long batchEndOffset, long numRestored) {}

            @Override
            public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
                progress.ended(totalRestored);
            }
        });
    }

    @Override
    public void start() {
        streams.start();
    }

    @Override
    public boolean isRunning() {
        checkHealthy();
        return streams.state() == KafkaStreams.State.RUNNING;
    }

    @Override
    public void checkHealthy() {
        if (error != null || streams.state() == KafkaStreams.State.ERROR) {
            throw new IllegalStateException("Kafka Streams failed: " + error, error);
        }
    }

    @Override
    public void close() {
        // Leave the group, as WeirApp does: the next instance then joins at once instead of waiting out this
        // member's session timeout.
        if (!streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(60)))) {
            throw new IllegalStateException("Kafka Streams did not stop within 60 s");
        }
    }
}
