package io.weir.benchmarks;

import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.test.TestRecord;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Kafka Streams' {@link TopologyTestDriver} on the same topology, with Kafka Streams' defaults
 * (10 MiB record cache, at-least-once). The driver commits after every record it processes, and a
 * commit flushes the record cache, so every update of a window reaches the changelog
 * {@code ks-bench-counts-changelog} and, under the default emit strategy, the output (for sessions,
 * with a tombstone for each session merged away).
 *
 * <p>The store type is given as {@link Materialized.StoreType}, so Kafka Streams picks the store it
 * builds for that emit strategy by itself: for RocksDB and {@code onWindowClose()} that is its
 * time-ordered window store, made for emitting closed windows; otherwise the store
 * {@code Stores.persistentTimestampedWindowStore} or {@code Stores.inMemoryWindowStore} gives.
 *
 * <p>The driver's wall clock follows the records' arrival times in steps of 100 ms: advancing it
 * makes the driver commit once more, so per-record steps would double Kafka Streams' commits, while
 * 100 ms matches Weir's commit interval. {@code onWindowClose()} looks for closed windows at most
 * once per second of that clock, as it does in production.
 */
final class KafkaStreamsEngine implements Engine {

    static final String APPLICATION_ID = "ks-bench";
    private static final long WALL_CLOCK_STEP_MS = 100;

    private final Path stateDir;
    private final TopologyTestDriver driver;
    private final TestInputTopic<String, String> input;
    private final TestOutputTopic<byte[], byte[]> results;
    private final TestOutputTopic<byte[], byte[]> changelog;
    private final Deserializer<Windowed<String>> keyDeserializer;
    private final Deserializer<Long> countDeserializer = Serdes.Long().deserializer();
    private long wallClock = Workload.START;

    /** {@code keys} reads the windowed keys {@code topology} writes. */
    KafkaStreamsEngine(Topology topology, Deserializer<Windowed<String>> keys) {
        try {
            stateDir = Files.createTempDirectory("ks-bench-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        driver = new TopologyTestDriver(topology, props, Instant.ofEpochMilli(Workload.START));
        keyDeserializer = keys;
        input = driver.createInputTopic(
                Topics.INPUT, Serdes.String().serializer(), Serdes.String().serializer());
        results = driver.createOutputTopic(Topics.OUTPUT, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        changelog = driver.createOutputTopic(
                APPLICATION_ID + "-" + CountTopologies.STORE + "-changelog",
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
    }

    @Override
    public void pipe(String key, long eventTime, long arrivalTime) {
        if (arrivalTime - wallClock >= WALL_CLOCK_STEP_MS) {
            long target = arrivalTime - (arrivalTime - wallClock) % WALL_CLOCK_STEP_MS;
            driver.advanceWallClockTime(Duration.ofMillis(target - wallClock));
            wallClock = target;
        }
        input.pipeInput(key, Workload.VALUE, eventTime);
    }

    @Override
    public void drain(OutputTally tally) {
        List<TestRecord<byte[], byte[]>> read = results.readRecordsToList();
        if (tally.decodes()) {
            for (TestRecord<byte[], byte[]> r : read) {
                Windowed<String> windowed = keyDeserializer.deserialize(Topics.OUTPUT, r.key());
                if (r.value() == null) {
                    tally.tombstone(windowed.key(), windowed.window().start());
                } else {
                    tally.result(
                            windowed.key(),
                            windowed.window().start(),
                            countDeserializer.deserialize(Topics.OUTPUT, r.value()));
                }
            }
        } else {
            tally.results(read.size());
        }
        long bytes = 0;
        List<TestRecord<byte[], byte[]>> logged = changelog.readRecordsToList();
        for (TestRecord<byte[], byte[]> r : logged) {
            bytes += r.key().length + (r.value() == null ? 0 : r.value().length);
        }
        tally.changelog(logged.size(), bytes);
    }

    @Override
    public Optional<WindowMetrics> windowMetrics() {
        return Optional.empty();
    }

    @Override
    public void close() {
        try {
            driver.close();
        } finally {
            deleteRecursively(stateDir);
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
