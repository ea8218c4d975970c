package io.weir.benchmarks;

import java.util.HashMap;
import java.util.Map;

/**
 * What an engine wrote, as the benchmark drains it: how many result records and changelog records,
 * and, when asked for, the latest count per (key, window start) — the final counts, which tests
 * compare across engines. Decoding results costs time, so a benchmark run leaves it off.
 */
final class OutputTally {

    /** A window of one key, named by the window's start. */
    record WindowKey(String key, long windowStart) {
    }

    private final Map<WindowKey, Long> latest;
    private long results;
    private long changelogRecords;

    private OutputTally(Map<WindowKey, Long> latest) {
        this.latest = latest;
    }

    /** Counts records only. */
    static OutputTally counting() {
        return new OutputTally(null);
    }

    /** Counts records and keeps the latest count of every window. */
    static OutputTally decoding() {
        return new OutputTally(new HashMap<>());
    }

    boolean decodes() {
        return latest != null;
    }

    void results(long n) {
        results += n;
    }

    void result(String key, long windowStart, long count) {
        results++;
        latest.put(new WindowKey(key, windowStart), count);
    }

    void changelogRecords(long n) {
        changelogRecords += n;
    }

    long results() {
        return results;
    }

    long changelogRecords() {
        return changelogRecords;
    }

    /** The latest count of each window; only for a {@link #decoding()} tally. */
    Map<WindowKey, Long> latestCounts() {
        if (latest == null) {
            throw new IllegalStateException("This tally counts records only");
        }
        return latest;
    }
}
