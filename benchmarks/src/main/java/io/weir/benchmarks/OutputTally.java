package io.weir.benchmarks;

import org.jspecify.annotations.Nullable;

import java.util.HashMap;
import java.util.Map;

/**
 * What an engine wrote, as the benchmark drains it: how many result records (retractions and
 * tombstones included), how many changelog records and their bytes, and, when asked for, the count
 * per (key, window start) as the results leave it — the final counts, which tests compare across
 * engines. A result sets its window's count, a discarding pane adds to it, a retraction or a
 * tombstone (Kafka Streams' null for a session merged away) removes it until the next result.
 * Decoding results costs time, so a benchmark run leaves it off.
 */
public final class OutputTally {

    /** A window of one key, named by the window's start. */
    public record WindowKey(String key, long windowStart) {}

    private final @Nullable Map<WindowKey, Long> latest;
    private long results;
    private long retractions;
    private long changelogRecords;
    private long changelogBytes;

    private OutputTally(@Nullable Map<WindowKey, Long> latest) {
        this.latest = latest;
    }

    /** Counts records only. */
    public static OutputTally counting() {
        return new OutputTally(null);
    }

    /** Counts records and keeps the latest count of every window. */
    public static OutputTally decoding() {
        return new OutputTally(new HashMap<>());
    }

    public boolean decodes() {
        return latest != null;
    }

    /** The windows' latest counts; only a decoding tally keeps them, and only it is given results. */
    private Map<WindowKey, Long> latest() {
        if (latest == null) {
            throw new IllegalStateException("A counting tally keeps no results");
        }
        return latest;
    }

    public void results(long n) {
        results += n;
    }

    public void result(String key, long windowStart, long count) {
        results++;
        latest().put(new WindowKey(key, windowStart), count);
    }

    /** A pane holding only what its window got since its previous pane (discarding refinement). */
    public void delta(String key, long windowStart, long count) {
        results++;
        latest().merge(new WindowKey(key, windowStart), count, Long::sum);
    }

    /** A retraction: takes back the window's previous pane; a new pane, if any, follows. */
    public void retraction(String key, long windowStart) {
        results++;
        retractions++;
        latest().remove(new WindowKey(key, windowStart));
    }

    /** A null result: the window is gone. */
    public void tombstone(String key, long windowStart) {
        results++;
        latest().remove(new WindowKey(key, windowStart));
    }

    /** {@code n} changelog records of {@code bytes} bytes of keys and values. */
    public void changelog(long n, long bytes) {
        changelogRecords += n;
        changelogBytes += bytes;
    }

    public long results() {
        return results;
    }

    /** Retractions among the results; only counted by a {@link #decoding()} tally. */
    public long retractions() {
        return retractions;
    }

    public long changelogRecords() {
        return changelogRecords;
    }

    /** The bytes of the changelog records' keys and values: what the stores wrote, before RocksDB's compaction. */
    public long changelogBytes() {
        return changelogBytes;
    }

    /** The latest count of each window; only for a {@link #decoding()} tally. */
    public Map<WindowKey, Long> latestCounts() {
        if (latest == null) {
            throw new IllegalStateException("This tally counts records only");
        }
        return latest;
    }
}
