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
 * exactly-once default); 64 MiB of write-back cache shared by the tasks (the runtime's default); the processing clock starts at the first
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
    private long cacheMaxBytes = 64L * 1024 * 1024;
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
        c.cacheMaxBytes = cacheMaxBytes;
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

    /**
     * The default settings (see the class docs), to refine with the {@code withXxx} methods.
     *
     * @return a config with every default
     */
    public static TestDriverConfig defaults() {
        return new TestDriverConfig();
    }

    /**
     * Gives {@code topic} (input, output or side output) {@code count} partitions.
     *
     * @param topic the topic's name
     * @param count its number of partitions; positive
     * @return a copy with that partition count for {@code topic}
     * @throws IllegalArgumentException if {@code count} is not positive
     */
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

    /**
     * How often the driver commits, in processing time, as the runtime's {@code commit.interval.ms}: when
     * the virtual clock has moved this far since the last commit. The default is 100 ms.
     *
     * @param interval the commit interval; at least 1 ms
     * @return a copy with that interval
     */
    public TestDriverConfig withCommitInterval(Duration interval) {
        TestDriverConfig c = copy();
        c.commitInterval = Require.positive("commitInterval", interval);
        return c;
    }

    /**
     * The size of the write-back cache all tasks share, as the runtime's {@code statestore.cache.max.bytes}
     * for an instance with one stream thread: when it is full, what the stores read is evicted and, if the
     * writes since the last commit alone fill it, the driver commits every task. The default is 64 MiB.
     *
     * @param bytes the cache size, in bytes; positive
     * @return a copy with that cache size
     * @throws IllegalArgumentException if {@code bytes} is not positive
     */
    public TestDriverConfig withCacheMaxBytes(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("cacheMaxBytes must be positive, was " + bytes);
        }
        TestDriverConfig c = copy();
        c.cacheMaxBytes = bytes;
        return c;
    }

    /**
     * The processing time the driver starts at. Without it, the clock starts at the first piped record:
     * at the time it arrives ({@link TestRecord#arrivingAt}) if given, else at its event time (the epoch
     * for a record without one), as an application reading fresh data would; an {@link
     * TestDriver#advanceTime} before any record starts it at the epoch. So a maximum future skew judges
     * records against the time the test's data starts at, not against 1970.
     *
     * @param time where the processing clock starts
     * @return a copy with that start time
     */
    public TestDriverConfig withStartTime(Instant time) {
        TestDriverConfig c = copy();
        c.startTime = time;
        return c;
    }

    /**
     * Keep RocksDB state under {@code dir} (the caller owns and deletes it).
     *
     * @param dir the state directory; a later driver given the same one restores from it
     * @return a copy that keeps state under {@code dir}
     */
    public TestDriverConfig withStateDir(Path dir) {
        TestDriverConfig c = copy();
        c.stateDir = dir;
        return c;
    }

    /**
     * The application id, as the runtime's {@code application.id}: it prefixes the internal topics (changelogs,
     * repartition topics) a test may read. The default is {@code test-driver}.
     *
     * @param id the application id; not blank
     * @return a copy with that id
     */
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
     *
     * @param keep false to forget records once every reader of their topic has read them
     * @return a copy with that choice
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
     *
     * @param bytes the largest record size, in bytes; positive
     * @return a copy with that limit
     * @throws IllegalArgumentException if {@code bytes} is not positive
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
     *
     * @param before how far before processing time an output's timestamp may be; not negative
     * @param after how far after processing time an output's timestamp may be; not negative
     * @return a copy with those limits
     * @throws IllegalArgumentException if either is negative
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
     *
     * @param skew how far ahead of processing time an event time may be; not negative
     * @return a copy with that bound
     * @throws IllegalArgumentException if {@code skew} is negative
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
     *
     * @param settings the serde settings, without the {@code serde.} prefix
     * @return a copy with those settings, replacing any given before
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
     *
     * @param names the topics' names
     * @return a copy with those topics added
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

    /**
     * The topics a source pattern may match: those of {@link #withTopics} and {@link #withPartitions}.
     *
     * @return a new set of the topic names
     */
    public Set<String> topics() {
        Set<String> all = new HashSet<>(topics);
        all.addAll(partitions.keySet());
        return all;
    }

    /**
     * The number of partitions of {@code topic}.
     *
     * @param topic the topic's name
     * @return the count given with {@link #withPartitions}, else 1
     */
    public int partitions(String topic) {
        return partitions.getOrDefault(topic, 1);
    }

    /**
     * How often the driver commits, in processing time.
     *
     * @return the commit interval
     */
    public Duration commitInterval() {
        return commitInterval;
    }

    /**
     * The size of the write-back cache the tasks share.
     *
     * @return the size, in bytes
     */
    public long cacheMaxBytes() {
        return cacheMaxBytes;
    }

    /**
     * The configured start of processing time; empty when the clock starts at the first record.
     *
     * @return the start time, if set
     */
    public Optional<Instant> startTime() {
        return Optional.ofNullable(startTime);
    }

    /**
     * The state directory given with {@link #withStateDir}.
     *
     * @return the directory; empty for a fresh temp dir the driver deletes on close
     */
    public Optional<Path> stateDir() {
        return Optional.ofNullable(stateDir);
    }

    /**
     * The application id, which prefixes the internal topics.
     *
     * @return the id; {@code test-driver} unless set
     */
    public String applicationId() {
        return applicationId;
    }

    /**
     * Whether records every reader of their topic has read stay in memory.
     *
     * @return true unless {@link #withKeepReadRecords} turned it off
     */
    public boolean keepReadRecords() {
        return keepReadRecords;
    }

    /**
     * The largest record any topic accepts.
     *
     * @return the size, in bytes; {@link #DEFAULT_MAX_RECORD_BYTES} unless set
     */
    public int maxRecordBytes() {
        return maxRecordBytes;
    }

    /**
     * The maximum future skew of sources whose strategy sets none; empty: none.
     *
     * @return the bound, if set
     */
    public Optional<Duration> maxFutureSkew() {
        return Optional.ofNullable(maxFutureSkew);
    }

    /**
     * How far before processing time an output's timestamp may be.
     *
     * @return the limit; practically unlimited unless set
     */
    public Duration timestampsBefore() {
        return timestampsBefore;
    }

    /**
     * How far after processing time an output's timestamp may be.
     *
     * @return the limit; practically unlimited unless set
     */
    public Duration timestampsAfter() {
        return timestampsAfter;
    }

    /**
     * The settings the topology's serdes are configured with, without the {@code serde.} prefix.
     *
     * @return an unmodifiable map; empty unless set
     */
    public Map<String, Object> serdeConfig() {
        return serdeConfig;
    }
}
