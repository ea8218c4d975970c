package io.weir.benchmarks.runtime;

import io.weir.benchmarks.CountTopologies;
import io.weir.streams.CloseOptions;
import io.weir.streams.RestoreListener;
import io.weir.streams.StreamsConfig;
import io.weir.streams.Topology;
import io.weir.streams.WeirStreams;
import io.weir.streams.state.StoreType;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The windowed count on Weir's runtime: one {@link WeirStreams} instance, one stream thread,
 * exactly-once, a commit every 100 ms, RocksDB store with Weir's default 10 MiB write-back cache per
 * task. Writes one on-time pane per window and key when the watermark passes the window's end.
 */
final class WeirApp implements StreamingApp {

    private final WeirStreams streams;

    WeirApp(AppSetup setup) {
        this(setup, CountTopologies.weir(setup.input(), setup.output(), StoreType.ROCKSDB));
    }

    /** An instance running {@code topology} with the same settings. */
    WeirApp(AppSetup setup, Topology topology) {
        Map<String, Object> config = new HashMap<>();
        config.put(StreamsConfig.APPLICATION_ID, setup.applicationId());
        config.put(StreamsConfig.BOOTSTRAP_SERVERS, setup.broker().bootstrapServers());
        config.put(StreamsConfig.STATE_DIR, setup.stateDir().toString());
        config.put(StreamsConfig.PROCESSING_GUARANTEE, StreamsConfig.EXACTLY_ONCE);
        config.put(StreamsConfig.COMMIT_INTERVAL_MS, 100L);
        config.put(StreamsConfig.NUM_STREAM_THREADS, 1);
        streams = new WeirStreams(topology, config);
        RestoreProgress progress = setup.restore();
        streams.setRestoreListener(new RestoreListener() {
            @Override
            public void onRestoreStart(TopicPartition changelog, String store, long from, long to) {
                progress.started();
            }

            @Override
            public void onRestoreEnd(TopicPartition changelog, String store, long total) {
                progress.ended(total);
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
        return streams.state() == WeirStreams.State.RUNNING;
    }

    @Override
    public void checkHealthy() {
        if (streams.state() == WeirStreams.State.ERROR) {
            throw new IllegalStateException(
                    "Weir failed: " + streams.error().orElse(null),
                    streams.error().orElse(null));
        }
    }

    @Override
    public void close() {
        // Leave the group, as KafkaStreamsApp does: Weir's members are static by default and stay in the group on
        // a plain close, so the next instance (a fresh one, with another identity) would wait out this one's
        // session before it gets any task.
        if (!streams.close(CloseOptions.within(Duration.ofSeconds(60)).withLeaveGroup(true))) {
            throw new IllegalStateException("Weir did not stop within 60 s");
        }
    }
}
