package io.weir.streams.test;

import io.weir.streams.internals.Require;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Settings of a {@link TestDriver}. Immutable; start from {@link #defaults()}.
 *
 * <p>Defaults: every topic has 1 partition; commits every 100 ms of processing time (the runtime's
 * exactly-once default); 10 MiB of write-back cache per task; processing time starts at the epoch;
 * state in a fresh temp dir deleted on close; application id {@code test-driver}; every record written
 * to a topic kept until the driver closes.
 */
public final class TestDriverConfig {

    private final Map<String, Integer> partitions;
    private final Duration commitInterval;
    private final long cacheMaxBytesPerTask;
    private final Instant startTime;
    private final @Nullable Path stateDir;
    private final String applicationId;
    private final boolean keepReadRecords;

    private TestDriverConfig(
            Map<String, Integer> partitions,
            Duration commitInterval,
            long cacheMaxBytesPerTask,
            Instant startTime,
            @Nullable Path stateDir,
            String applicationId,
            boolean keepReadRecords) {
        this.partitions = Map.copyOf(partitions);
        this.commitInterval = commitInterval;
        this.cacheMaxBytesPerTask = cacheMaxBytesPerTask;
        this.startTime = startTime;
        this.stateDir = stateDir;
        this.applicationId = applicationId;
        this.keepReadRecords = keepReadRecords;
    }

    public static TestDriverConfig defaults() {
        return new TestDriverConfig(
                Map.of(), Duration.ofMillis(100), 10L * 1024 * 1024, Instant.EPOCH, null, "test-driver", true);
    }

    /** Gives {@code topic} (input, output or side output) {@code count} partitions. */
    public TestDriverConfig withPartitions(String topic, int count) {
        if (count <= 0) {
            throw new IllegalArgumentException("partitions of '" + topic + "' must be positive, was " + count);
        }
        Map<String, Integer> next = new HashMap<>(partitions);
        next.put(Require.name("topic", topic), count);
        return new TestDriverConfig(
                next, commitInterval, cacheMaxBytesPerTask, startTime, stateDir, applicationId, keepReadRecords);
    }

    public TestDriverConfig withCommitInterval(Duration interval) {
        return new TestDriverConfig(
                partitions,
                Require.positive("commitInterval", interval),
                cacheMaxBytesPerTask,
                startTime,
                stateDir,
                applicationId,
                keepReadRecords);
    }

    public TestDriverConfig withCacheMaxBytesPerTask(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("cacheMaxBytesPerTask must be positive, was " + bytes);
        }
        return new TestDriverConfig(
                partitions, commitInterval, bytes, startTime, stateDir, applicationId, keepReadRecords);
    }

    /** The processing time the driver starts at. */
    public TestDriverConfig withStartTime(Instant time) {
        return new TestDriverConfig(
                partitions, commitInterval, cacheMaxBytesPerTask, time, stateDir, applicationId, keepReadRecords);
    }

    /** Keep RocksDB state under {@code dir} (the caller owns and deletes it). */
    public TestDriverConfig withStateDir(Path dir) {
        return new TestDriverConfig(
                partitions, commitInterval, cacheMaxBytesPerTask, startTime, dir, applicationId, keepReadRecords);
    }

    public TestDriverConfig withApplicationId(String id) {
        return new TestDriverConfig(
                partitions,
                commitInterval,
                cacheMaxBytesPerTask,
                startTime,
                stateDir,
                Require.name("applicationId", id),
                keepReadRecords);
    }

    /**
     * Whether a record every reader of its topic has read stays in memory (the default: a reader made
     * later still sees it). With {@code false}, the driver forgets such records, so a long run that
     * keeps reading its outputs (a benchmark, a soak test) holds only what is unread; a reader made
     * afterwards starts at the oldest record still held. A topic no reader was made for keeps every
     * record either way.
     */
    public TestDriverConfig withKeepReadRecords(boolean keep) {
        return new TestDriverConfig(
                partitions, commitInterval, cacheMaxBytesPerTask, startTime, stateDir, applicationId, keep);
    }

    public int partitions(String topic) {
        return partitions.getOrDefault(topic, 1);
    }

    public Duration commitInterval() {
        return commitInterval;
    }

    public long cacheMaxBytesPerTask() {
        return cacheMaxBytesPerTask;
    }

    public Instant startTime() {
        return startTime;
    }

    public Optional<Path> stateDir() {
        return Optional.ofNullable(stateDir);
    }

    public String applicationId() {
        return applicationId;
    }

    public boolean keepReadRecords() {
        return keepReadRecords;
    }
}
