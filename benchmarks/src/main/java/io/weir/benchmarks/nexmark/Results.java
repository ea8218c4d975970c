package io.weir.benchmarks.nexmark;

import io.weir.benchmarks.runtime.WrongOutput;
import io.weir.streams.dsl.KeyValue;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A query's results as a multiset of {@code key -> value} lines, built from an engine's output records
 * or from the query's reference, so that two of them compare whatever types the query writes. Not
 * thread-safe.
 */
public final class Results {

    private static final int SHOWN = 5;

    private final OutputShape shape;
    private final Map<String, Long> appended = new HashMap<>();
    private final Map<String, String> rows = new LinkedHashMap<>();
    private final Map<String, Long> totals = new HashMap<>();
    private long records;

    public Results(OutputShape shape) {
        this.shape = shape;
    }

    /** The results {@code query}'s reference computes from {@code events}. */
    public static <K, V> Results expected(NexmarkQuery<K, V> query, List<Event> events, long watermark) {
        Results expected = new Results(query.shape());
        for (KeyValue<K, V> result : query.reference().results(events, watermark)) {
            expected.add(result.key(), result.value());
        }
        return expected;
    }

    /** Takes one output record, in output order. */
    public void add(@Nullable Object key, @Nullable Object value) {
        records++;
        String k = String.valueOf(key);
        switch (shape) {
            case UPSERT -> {
                if (value == null) {
                    rows.remove(k);
                } else {
                    rows.put(k, String.valueOf(value));
                }
            }
            case SUMMED -> totals.merge(k, amount(value), Long::sum);
            case APPEND -> appended.merge(k + " -> " + value, 1L, Long::sum);
        }
    }

    /** How many records were added (for an upsert output, more than its rows when keys were updated). */
    public long records() {
        return records;
    }

    /** How many results: output records (append), rows (upsert) or keys (summed). */
    public long size() {
        return switch (shape) {
            case UPSERT -> rows.size();
            case SUMMED -> totals.size();
            case APPEND -> appended.values().stream().mapToLong(Long::longValue).sum();
        };
    }

    /** What a {@link OutputShape#SUMMED} record adds to its key's total. */
    private static long amount(@Nullable Object value) {
        if (value instanceof Number n) {
            return n.longValue();
        }
        if (value instanceof long[] a && a.length > 0) {
            return a[0];
        }
        throw new IllegalArgumentException("A summed output needs numbers or long[] values, not " + value);
    }

    /**
     * Whether an output being read has come to {@code expected}: as many records as results (append),
     * or the same rows (upsert). Cheap unless the sizes agree; {@link #check} then says whether they are
     * the same results.
     */
    public boolean reached(Results expected) {
        return switch (shape) {
            case APPEND -> records >= expected.size();
            case SUMMED -> totals.equals(expected.totals);
            case UPSERT -> rows.size() == expected.rows.size() && rows.equals(expected.rows);
        };
    }

    /**
     * Throws, naming a few of the differences, unless these results equal {@code expected}.
     *
     * @param what names the run, for the message
     * @throws WrongOutput if they differ
     */
    public void check(Results expected, String what) {
        Map<String, Long> mine = lines();
        Map<String, Long> wanted = expected.lines();
        if (mine.equals(wanted)) {
            return;
        }
        List<String> missing = difference(wanted, mine);
        List<String> extra = difference(mine, wanted);
        throw new WrongOutput(String.format(
                "%s: %d results, %d expected; %d missing, e.g. %s; %d extra or duplicated, e.g. %s",
                what,
                size(),
                expected.size(),
                missing.size(),
                missing.subList(0, Math.min(SHOWN, missing.size())),
                extra.size(),
                extra.subList(0, Math.min(SHOWN, extra.size()))));
    }

    private Map<String, Long> lines() {
        if (shape == OutputShape.APPEND) {
            return appended;
        }
        Map<String, Long> lines = new HashMap<>();
        if (shape == OutputShape.SUMMED) {
            totals.forEach((k, total) -> lines.put(k + " -> " + total, 1L));
        } else {
            rows.forEach((k, v) -> lines.put(k + " -> " + v, 1L));
        }
        return lines;
    }

    /** The lines of {@code a} that {@code b} holds fewer of, once per copy missing, sorted. */
    private static List<String> difference(Map<String, Long> a, Map<String, Long> b) {
        Map<String, Long> sorted = new TreeMap<>(a);
        List<String> lines = new ArrayList<>();
        sorted.forEach((line, count) -> {
            long more = count - Objects.requireNonNullElse(b.get(line), 0L);
            for (long i = 0; i < more; i++) {
                lines.add(line);
            }
        });
        return lines;
    }
}
