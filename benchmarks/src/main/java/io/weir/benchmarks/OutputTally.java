package io.weir.benchmarks;

import java.util.HashMap;
import java.util.Map;

/**
 * What an engine wrote, as the benchmark drains it: how many result records and changelog records,
 * and, when asked for, the latest count per (key, window start) — the final counts, which tests
 * compare across engines. Decoding results costs time, so a benchmark run leaves it off.
 */
public final class OutputTally {

    /** A window of one key, named by the window's start. */
    public record WindowKey(String key, long windowStart) {
    }

    private final Map<WindowKey, Long> latest;
    private long results;
    private long changelogRecords;

    private OutputTally(Map<WindowKey, Long> latest) {
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

    public void results(long n) {
        results += n;
    }

    public void result(String key, long windowStart, long count) {
        results++;
        latest.put(new WindowKey(key, windowStart), count);
    }

    public void changelogRecords(long n) {
        changelogRecords += n;
    }

    public long results() {
        return results;
    }

    public long changelogRecords() {
        return changelogRecords;
    }

    /** The latest count of each window; only for a {@link #decoding()} tally. */
    public Map<WindowKey, Long> latestCounts() {
        if (latest == null) {
            throw new IllegalStateException("This tally counts records only");
        }
        return latest;
    }
}
