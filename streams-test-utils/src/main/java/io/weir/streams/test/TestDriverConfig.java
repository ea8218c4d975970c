package io.weir.streams.test;

import io.weir.streams.internals.Require;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Settings of a {@link TestDriver}. Immutable; start from {@link #defaults()}.
 *
 * <p>Defaults: every topic has 1 partition; commits every 100 ms of processing time (the runtime's
 * exactly-once default); 10 MiB of write-back cache per task; the processing clock starts at the first
 * piped record (see {@link #withStartTime}); a record is refused above the producer's default
 * {@code max.request.size} (1 MiB); state in a fresh temp dir deleted on close; application id {@code
 * test-driver}; every record written to a topic kept until the driver closes.
 */
public final class TestDriverConfig {

    /** Kafka's producer default for {@code max.request.size}, the first limit a record meets. */
    public static final int DEFAULT_MAX_RECORD_BYTES = 1024 * 1024;

    private static final Duration MAX_DURATION = Duration.ofMillis(Long.MAX_VALUE);

    private Map<String, Integer> partitions = Map.of();
    private Duration commitInterval = Duration.ofMillis(100);
    private long cacheMaxBytesPerTask = 10L * 1024 * 1024;
    private @Nullable Instant startTime;
    private @Nullable Path stateDir;
    private String applicationId = "test-driver";
    private boolean keepReadRecords = true;
    private int maxRecordBytes = DEFAULT_MAX_RECORD_BYTES;
    private Duration timestampsBefore = MAX_DURATION;
    private Duration timestampsAfter = MAX_DURATION;
    private @Nullable Duration maxFutureSkew;
    private Map<String, Object> serdeConfig = Map.of();
    private Set<String> topics = Set.of();

    private TestDriverConfig() {}

    private TestDriverConfig copy() {
        TestDriverConfig c = new TestDriverConfig();
        c.partitions = partitions;
        c.commitInterval = commitInterval;
        c.cacheMaxBytesPerTask = cacheMaxBytesPerTask;
        c.startTime = startTime;
        c.stateDir = stateDir;
        c.applicationId = applicationId;
        c.keepReadRecords = keepReadRecords;
        c.maxRecordBytes = maxRecordBytes;
        c.timestampsBefore = timestampsBefore;
        c.timestampsAfter = timestampsAfter;
        c.maxFutureSkew = maxFutureSkew;
        c.serdeConfig = serdeConfig;
        c.topics = topics;
        return c;
    }

    public static TestDriverConfig defaults() {
        return new TestDriverConfig();
    }

    /** Gives {@code topic} (input, output or side output) {@code count} partitions. */
    public TestDriverConfig withPartitions(String topic, int count) {
        if (count <= 0) {
            throw new IllegalArgumentException("partitions of '" + topic + "' must be positive, was " + count);
        }
        Map<String, Integer> next = new HashMap<>(partitions);
        next.put(Require.name("topic", topic), count);
        TestDriverConfig c = copy();
        c.partitions = Map.copyOf(next);
        return c;
    }

    public TestDriverConfig withCommitInterval(Duration interval) {
        TestDriverConfig c = copy();
        c.commitInterval = Require.positive("commitInterval", interval);
        return c;
    }

    public TestDriverConfig withCacheMaxBytesPerTask(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("cacheMaxBytesPerTask must be positive, was " + bytes);
        }
        TestDriverConfig c = copy();
        c.cacheMaxBytesPerTask = bytes;
        return c;
    }

    /**
     * The processing time the driver starts at. Without it, the clock starts at the first piped record:
     * at the time it arrives ({@link TestRecord#arrivingAt}) if given, else at its event time (the epoch
     * for a record without one), as an application reading fresh data would; an {@link
     * TestDriver#advanceTime} before any record starts it at the epoch. So a maximum future skew judges
     * records against the time the test's data starts at, not against 1970.
     */
    public TestDriverConfig withStartTime(Instant time) {
        TestDriverConfig c = copy();
        c.startTime = time;
        return c;
    }

    /** Keep RocksDB state under {@code dir} (the caller owns and deletes it). */
    public TestDriverConfig withStateDir(Path dir) {
        TestDriverConfig c = copy();
        c.stateDir = dir;
        return c;
    }

    public TestDriverConfig withApplicationId(String id) {
        TestDriverConfig c = copy();
        c.applicationId = Require.name("applicationId", id);
        return c;
    }

    /**
     * Whether a record every reader of its topic has read stays in memory (the default: a reader made
     * later still sees it). With {@code false}, the driver forgets such records, so a long run that
     * keeps reading its outputs (a benchmark, a soak test) holds only what is unread; a reader made
     * afterwards starts at the oldest record still held. A topic no reader was made for keeps every
     * record either way.
     */
    public TestDriverConfig withKeepReadRecords(boolean keep) {
        TestDriverConfig c = copy();
        c.keepReadRecords = keep;
        return c;
    }

    /**
     * The largest record, measured as Kafka's producer measures it (a batch holding the record alone),
     * that any topic accepts: the smallest of the producer's {@code max.request.size} and the topics'
     * {@code max.message.bytes} of the deployment the test stands for. A larger piped record is refused
     * with Kafka's {@code RecordTooLargeException}, as the producer would; a larger output goes to its
     * sink's production error handler ({@code RECORD_TOO_LARGE}), as on a broker.
     */
    public TestDriverConfig withMaxRecordBytes(int bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("maxRecordBytes must be positive, was " + bytes);
        }
        TestDriverConfig c = copy();
        c.maxRecordBytes = bytes;
        return c;
    }

    /**
     * The timestamps every topic the topology writes accepts, as a broker's {@code
     * message.timestamp.before.max.ms} and {@code message.timestamp.after.max.ms} would (Kafka 4's default
     * after is one hour), judged against the driver's processing time. An output outside them goes to its
     * sink's production error handler ({@code TIMESTAMP_OUT_OF_RANGE}); a side-output or dead-letter record
     * is restamped. Unlimited by default: tests pipe event times far from their processing time.
     */
    public TestDriverConfig withTimestampLimits(Duration before, Duration after) {
        if (before.isNegative() || after.isNegative()) {
            throw new IllegalArgumentException(
                    "timestamp limits must not be negative, were " + before + " and " + after);
        }
        TestDriverConfig c = copy();
        c.timestampsBefore = before;
        c.timestampsAfter = after;
        return c;
    }

    /**
     * The maximum future skew of every source whose watermark strategy sets none, as the runtime's {@code
     * max.future.skew.ms} (one hour there) sets it, judged against the driver's processing time. None by
     * default: the driver's clock starts at the first record and moves only when the test moves it, so a
     * test whose records span more than an hour would see its later records refused.
     */
    public TestDriverConfig withMaxFutureSkew(Duration skew) {
        if (skew.isNegative()) {
            throw new IllegalArgumentException("maxFutureSkew must not be negative, was " + skew);
        }
        TestDriverConfig c = copy();
        c.maxFutureSkew = skew;
        return c;
    }

    /**
     * Settings for the topology's serdes, as the runtime's {@code serde.}-prefixed settings (give them
     * here without the prefix): the driver calls {@code configure(settings, isKey)} on every serde of the
     * topology once when it starts. Empty by default: serdes are used as given.
     */
    public TestDriverConfig withSerdeConfig(Map<String, ?> settings) {
        TestDriverConfig c = copy();
        c.serdeConfig = Map.copyOf(settings);
        return c;
    }

    /**
     * Topics that exist beside those the topology names, for its source patterns ({@code
     * StreamsBuilder.stream(Pattern, ...)}) to match when the driver starts; topics given {@link
     * #withPartitions} exist too.
     */
    public TestDriverConfig withTopics(String... names) {
        Set<String> next = new HashSet<>(topics);
        for (String name : names) {
            next.add(Require.name("topic", name));
        }
        TestDriverConfig c = copy();
        c.topics = Set.copyOf(next);
        return c;
    }

    /** The topics a source pattern may match: those of {@link #withTopics} and {@link #withPartitions}. */
    public Set<String> topics() {
        Set<String> all = new HashSet<>(topics);
        all.addAll(partitions.keySet());
        return all;
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

    /** The configured start of processing time; empty when the clock starts at the first record. */
    public Optional<Instant> startTime() {
        return Optional.ofNullable(startTime);
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

    public int maxRecordBytes() {
        return maxRecordBytes;
    }

    /** The maximum future skew of sources whose strategy sets none; empty: none. */
    public Optional<Duration> maxFutureSkew() {
        return Optional.ofNullable(maxFutureSkew);
    }

    /** How far before processing time an output's timestamp may be. */
    public Duration timestampsBefore() {
        return timestampsBefore;
    }

    /** How far after processing time an output's timestamp may be. */
    public Duration timestampsAfter() {
        return timestampsAfter;
    }

    public Map<String, Object> serdeConfig() {
        return serdeConfig;
    }
}
