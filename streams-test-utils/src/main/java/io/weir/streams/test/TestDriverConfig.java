package io.weir.streams.test;

import io.weir.streams.internals.Require;

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
 * state in a fresh temp dir deleted on close; application id {@code test-driver}.
 */
public final class TestDriverConfig {

    private final Map<String, Integer> partitions;
    private final Duration commitInterval;
    private final long cacheMaxBytesPerTask;
    private final Instant startTime;
    private final Path stateDir;
    private final String applicationId;

    private TestDriverConfig(Map<String, Integer> partitions, Duration commitInterval, long cacheMaxBytesPerTask,
                             Instant startTime, Path stateDir, String applicationId) {
        this.partitions = Map.copyOf(partitions);
        this.commitInterval = commitInterval;
        this.cacheMaxBytesPerTask = cacheMaxBytesPerTask;
        this.startTime = startTime;
        this.stateDir = stateDir;
        this.applicationId = applicationId;
    }

    public static TestDriverConfig defaults() {
        return new TestDriverConfig(Map.of(), Duration.ofMillis(100), 10L * 1024 * 1024, Instant.EPOCH, null, "test-driver");
    }

    /** Gives {@code topic} (input, output or side output) {@code count} partitions. */
    public TestDriverConfig withPartitions(String topic, int count) {
        if (count <= 0) {
            throw new IllegalArgumentException("partitions of '" + topic + "' must be positive, was " + count);
        }
        Map<String, Integer> next = new HashMap<>(partitions);
        next.put(Require.name("topic", topic), count);
        return new TestDriverConfig(next, commitInterval, cacheMaxBytesPerTask, startTime, stateDir, applicationId);
    }

    public TestDriverConfig withCommitInterval(Duration interval) {
        return new TestDriverConfig(partitions, Require.positive("commitInterval", interval), cacheMaxBytesPerTask,
                startTime, stateDir, applicationId);
    }

    public TestDriverConfig withCacheMaxBytesPerTask(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("cacheMaxBytesPerTask must be positive, was " + bytes);
        }
        return new TestDriverConfig(partitions, commitInterval, bytes, startTime, stateDir, applicationId);
    }

    /** The processing time the driver starts at. */
    public TestDriverConfig withStartTime(Instant time) {
        return new TestDriverConfig(partitions, commitInterval, cacheMaxBytesPerTask, time, stateDir, applicationId);
    }

    /** Keep RocksDB state under {@code dir} (the caller owns and deletes it). */
    public TestDriverConfig withStateDir(Path dir) {
        return new TestDriverConfig(partitions, commitInterval, cacheMaxBytesPerTask, startTime, dir, applicationId);
    }

    public TestDriverConfig withApplicationId(String id) {
        return new TestDriverConfig(partitions, commitInterval, cacheMaxBytesPerTask, startTime, stateDir,
                Require.name("applicationId", id));
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
}
