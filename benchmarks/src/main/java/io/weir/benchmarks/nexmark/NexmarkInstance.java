package io.weir.benchmarks.nexmark;

import io.weir.benchmarks.HeapMonitor;
import io.weir.benchmarks.TableTopologies;
import io.weir.streams.CloseOptions;
import io.weir.streams.WeirStreams;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;

/**
 * One instance of a Nexmark query's application in a JVM of its own, so that its CPU time and heap are
 * its own: Weir or Kafka Streams 4.4, one stream thread, exactly-once, RocksDB stores with each library's
 * default cache. It prints {@code STARTING} just before {@code start()}, then every 100 ms {@code STATUS
 * running=<bool> failed=<bool> cpuNanos=<process CPU> peakHeapAfterGc=<bytes>}, and closes cleanly when its
 * standard input ends (the benchmark closes it) or on SIGTERM.
 *
 * <p>Arguments: {@code weir|kafka-streams|weir-behind|ceiling query bootstrap applicationId stateDir persons
 * auctions bids sideInput output outOfOrderMs commitIntervalMs}. {@code weir-behind} is Weir committing every
 * {@value #BEHIND_MS} ms while it is behind its input; {@code ceiling} runs q0 on Kafka's clients alone
 * ({@link PassThroughCeiling}).
 */
public final class NexmarkInstance {

    private static final long STATUS_INTERVAL_MS = 100;

    /** Weir's {@code commit.interval.behind.ms} for the {@code weir-behind} engine: ten default intervals. */
    private static final long BEHIND_MS = 1_000;

    private NexmarkInstance() {}

    /** A running application, as the status line sees it, and how to close it. */
    private record Running(BooleanSupplier running, BooleanSupplier failed, Runnable closer) implements AutoCloseable {
        @Override
        public void close() {
            closer.run();
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 12) {
            throw new IllegalArgumentException("Usage: weir|kafka-streams query bootstrap applicationId stateDir "
                    + "persons auctions bids sideInput output outOfOrderMs commitIntervalMs; got " + args.length
                    + " arguments");
        }
        NexmarkQuery<?, ?> query = NexmarkQueries.named(args[1]);
        NexmarkSources sources = new NexmarkSources(
                new NexmarkTopics(args[5], args[6], args[7], args[8]), Duration.ofMillis(Long.parseLong(args[10])));
        String output = args[9];
        long commitMs = Long.parseLong(args[11]);
        try (HeapMonitor heap = new HeapMonitor()) {
            Running app = switch (args[0]) {
                case "weir" -> weir(query, sources, output, args[2], args[3], args[4], commitMs, commitMs);
                case "weir-behind" -> weir(query, sources, output, args[2], args[3], args[4], commitMs, BEHIND_MS);
                case "kafka-streams" -> kafkaStreams(query, sources, output, args[2], args[3], args[4], commitMs);
                case "ceiling" -> ceiling(query, sources, output, args[2], args[3], commitMs);
                default -> throw new IllegalArgumentException("Unknown engine " + args[0]);
            };
            CountDownLatch stop = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                stop.countDown();
                app.close();
            }));
            Thread stdin = new Thread(
                    () -> {
                        try {
                            while (System.in.read() >= 0) {
                                // Reads until the benchmark closes the stream.
                            }
                        } catch (java.io.IOException e) {
                            // Closed: stop as well.
                        }
                        stop.countDown();
                    },
                    "nexmark-stdin");
            stdin.setDaemon(true);
            stdin.start();
            while (!stop.await(STATUS_INTERVAL_MS, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                System.out.println("STATUS running=" + app.running().getAsBoolean() + " failed="
                        + app.failed().getAsBoolean() + " cpuNanos=" + cpuNanos() + " peakHeapAfterGc="
                        + heap.peakAfterGcBytes());
            }
            app.close();
        }
        System.exit(0);
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static Running weir(
            NexmarkQuery<?, ?> query,
            NexmarkSources sources,
            String output,
            String bootstrap,
            String applicationId,
            String stateDir,
            long commitMs,
            long commitBehindMs) {
        Map<String, Object> config = new HashMap<>();
        config.put(io.weir.streams.StreamsConfig.APPLICATION_ID, applicationId);
        config.put(io.weir.streams.StreamsConfig.BOOTSTRAP_SERVERS, bootstrap);
        config.put(io.weir.streams.StreamsConfig.STATE_DIR, stateDir);
        config.put(io.weir.streams.StreamsConfig.PROCESSING_GUARANTEE, io.weir.streams.StreamsConfig.EXACTLY_ONCE);
        config.put(io.weir.streams.StreamsConfig.COMMIT_INTERVAL_MS, commitMs);
        config.put(io.weir.streams.StreamsConfig.COMMIT_INTERVAL_BEHIND_MS, commitBehindMs);
        config.put(io.weir.streams.StreamsConfig.NUM_STREAM_THREADS, 1);
        WeirStreams streams = new WeirStreams(query.weirTopology(sources, output), config);
        System.out.println("STARTING cpuNanos=" + cpuNanos());
        streams.start();
        return new Running(
                () -> streams.state() == WeirStreams.State.RUNNING,
                () -> streams.state() == WeirStreams.State.ERROR,
                () -> streams.close(CloseOptions.within(Duration.ofSeconds(30)).withLeaveGroup(true)));
    }

    private static Running ceiling(
            NexmarkQuery<?, ?> query,
            NexmarkSources sources,
            String output,
            String bootstrap,
            String applicationId,
            long commitMs) {
        if (!query.name().equals(PassThroughCeiling.QUERY)) {
            throw new IllegalArgumentException(
                    "The ceiling computes " + PassThroughCeiling.QUERY + " only, not " + query.name());
        }
        PassThroughCeiling ceiling = new PassThroughCeiling(
                bootstrap, applicationId, sources.topics().bids(), output, commitMs);
        System.out.println("STARTING cpuNanos=" + cpuNanos());
        ceiling.start();
        return new Running(ceiling::running, ceiling::failed, ceiling::close);
    }

    private static Running kafkaStreams(
            NexmarkQuery<?, ?> query,
            NexmarkSources sources,
            String output,
            String bootstrap,
            String applicationId,
            String stateDir,
            long commitMs) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, commitMs);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        props.putAll(TableTopologies.optimized());
        KafkaStreams streams = new KafkaStreams(query.kafkaStreamsTopology(sources, output), props);
        System.out.println("STARTING cpuNanos=" + cpuNanos());
        streams.start();
        return new Running(
                () -> streams.state() == KafkaStreams.State.RUNNING,
                () -> streams.state() == KafkaStreams.State.ERROR,
                () -> streams.close(org.apache.kafka.streams.CloseOptions.groupMembershipOperation(
                                org.apache.kafka.streams.CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                        .withTimeout(Duration.ofSeconds(30))));
    }
}
