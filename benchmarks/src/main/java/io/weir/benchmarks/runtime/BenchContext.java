package io.weir.benchmarks.runtime;

import io.weir.benchmarks.CountTopologies;
import io.weir.benchmarks.OutputTally.WindowKey;
import io.weir.benchmarks.Workload;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.TempDirs;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import java.util.function.IntToLongFunction;

/**
 * What the phases of one benchmark run share: the broker (warmed up at once, see {@link #warmUpBroker()}),
 * the options, a prefix that keeps this run's topics and groups apart from any earlier run's, a temp
 * directory for every app's state, and the pre-loaded inputs, each loaded once. {@link #close()}
 * deletes the state; the broker is the caller's.
 */
final class BenchContext implements AutoCloseable {

    /** The throughput input, pre-loaded: its records, where each partition ends, and the count of every (key, window). */
    record LoadedInput(String topic, int records, Map<TopicPartition, Long> ends, Map<WindowKey, Long> expected) {}

    private static final Logger log = LoggerFactory.getLogger(BenchContext.class);

    private final KafkaBroker broker;
    private final RuntimeOptions options;
    private final String runId = "rb" + Long.toString(System.currentTimeMillis(), 36);
    private final Path stateRoot;
    private final GroupProgress progress;
    private final Map<AppKind, String> windowStoreApps = new EnumMap<>(AppKind.class);
    private final RetryOnce retry = new RetryOnce();
    private @Nullable LoadedInput throughputInput;
    private @Nullable LoadedInput keysInput;
    private @Nullable LoadedInput warmupInput;
    private int stateDirs;

    BenchContext(KafkaBroker broker, RuntimeOptions options) {
        this.broker = broker;
        this.options = options;
        try {
            this.stateRoot = Files.createTempDirectory("weir-runtime-bench-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.progress = new GroupProgress(broker.bootstrapServers());
        warmUpBroker();
    }

    RuntimeOptions options() {
        return options;
    }

    String bootstrap() {
        return broker.bootstrapServers();
    }

    GroupProgress progress() {
        return progress;
    }

    /** Runs each pre-load and each run of every phase once more if it fails, and lists those it did. */
    RetryOnce retry() {
        return retry;
    }

    /** A name unique to this run. */
    String name(String suffix) {
        return runId + "-" + suffix;
    }

    /** Creates the topic {@code name} with the run's partition count. */
    String topic(String name) {
        broker.createTopic(name, options.partitions());
        return name;
    }

    /** An instance of {@code appId} reading {@code input}, on a new, empty state directory. */
    AppSetup setup(String appId, String input, String output, RestoreProgress restore) {
        return new AppSetup(
                broker, appId, input, output, options.partitions(), stateRoot.resolve("state-" + stateDirs++), restore);
    }

    /**
     * The throughput input, pre-loaded on first use: {@code --records} records over {@code --keys} keys,
     * {@code --per-minute} per minute of event time, ending about two minutes ago (see {@link Workload}).
     * A failed pre-load is retried once, into a topic of its own.
     */
    synchronized LoadedInput throughputInput() throws Exception {
        if (throughputInput == null) {
            throughputInput = retry.run(
                    "throughput pre-load", attempt -> loadWorkload(name("input-a" + attempt), options.records()));
        }
        return throughputInput;
    }

    /** The warm-up input: the first {@code --warmup} records of an input made as the throughput input is. */
    synchronized LoadedInput warmupInput() throws Exception {
        if (warmupInput == null) {
            warmupInput = retry.run(
                    "warm-up pre-load", attempt -> loadWorkload(name("warmup-input-a" + attempt), options.warmup()));
        }
        return warmupInput;
    }

    private LoadedInput loadWorkload(String topic, int records) {
        double intervalMs = 60_000.0 / options.perMinute();
        long span = (long) Math.ceil(records * intervalMs);
        long start = minuteFloor(System.currentTimeMillis() - span - 120_000);
        Workload workload = Workload.generate(records, options.keys(), intervalMs, start);
        Map<WindowKey, Long> expected = new HashMap<>();
        for (int i = 0; i < workload.size(); i++) {
            expected.merge(new WindowKey(workload.key(i), minuteFloor(workload.eventTime(i))), 1L, Long::sum);
        }
        return load(topic, workload.size(), workload::key, workload::eventTime, expected);
    }

    /**
     * Runs a fresh instance of {@code kind} as {@code appId} over {@code input} until it committed the end,
     * then stops it; returns {@code appId}.
     */
    String runToEnd(AppKind kind, String appId, LoadedInput input, Duration timeout)
            throws TimeoutException, InterruptedException {
        try (StreamingApp app = kind.open(setup(appId, input.topic(), topic(appId + "-out"), new RestoreProgress()))) {
            app.start();
            progress.awaitCommitted(app, appId, input.ends(), timeout);
        }
        return appId;
    }

    /**
     * Makes the broker create its transaction-state and consumer-offsets topics (one transaction that
     * commits an offset), so that no timed run pays for them.
     */
    // new ConsumerGroupMetadata(groupId) is deprecated for removal, but it is the only way to name a
    // group in a transaction without a consumer of it; the warm-up needs none.
    @SuppressWarnings("removal")
    private void warmUpBroker() {
        String topic = topic(name("broker-warmup"));
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                        ProducerConfig.TRANSACTIONAL_ID_CONFIG, name("broker-warmup")),
                new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            // Committing the transaction checks the send.
            @SuppressWarnings("FutureReturnValueIgnored")
            var unused = producer.send(new ProducerRecord<>(topic, new byte[0]));
            producer.sendOffsetsToTransaction(
                    Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(1)),
                    new ConsumerGroupMetadata(name("broker-warmup")));
            producer.commitTransaction();
        }
    }

    /**
     * The key-store input, pre-loaded on first use: {@code --restore-keys} records, each with a key of
     * its own, all in one 1-minute window (event times spread over its first 50 s) that nothing later
     * closes, so a count ends with one entry per key. A failed pre-load is retried once, into a topic
     * of its own.
     */
    synchronized LoadedInput keysInput() throws Exception {
        if (keysInput == null) {
            int n = options.restoreKeys();
            long window = minuteFloor(System.currentTimeMillis() - 180_000);
            keysInput = retry.run(
                    "keys pre-load",
                    attempt -> load(
                            name("keys-input-a" + attempt),
                            n,
                            i -> "key-" + i,
                            i -> window + i * 50_000L / n,
                            Map.of()));
        }
        return keysInput;
    }

    /**
     * Creates {@code topic} (which waits until every partition's leader serves it, see
     * {@link KafkaBroker#createTopic}) and writes the records to it.
     */
    private LoadedInput load(
            String topic,
            int records,
            IntFunction<String> key,
            IntToLongFunction eventTime,
            Map<WindowKey, Long> expected) {
        topic(topic);
        log.info("Pre-loading {} records into {}", records, topic);
        Preloader.load(bootstrap(), topic, records, key, eventTime, Workload.VALUE);
        return new LoadedInput(topic, records, progress.committedEnd(topic, options.partitions()), expected);
    }

    /** Remembers that {@code appId} of {@code kind} wrote a window-store changelog of the throughput input. */
    synchronized void windowStorePopulated(AppKind kind, String appId) {
        windowStoreApps.put(kind, appId);
    }

    /** The app of {@code kind} whose changelog holds the throughput input's windows, if one ran. */
    synchronized @Nullable String windowStoreApp(AppKind kind) {
        return windowStoreApps.get(kind);
    }

    static long minuteFloor(long t) {
        return t - Math.floorMod(t, CountTopologies.WINDOW_MS);
    }

    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    @Override
    public void close() {
        progress.close();
        TempDirs.deleteRecursively(stateRoot);
    }
}
