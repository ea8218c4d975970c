package io.weir.streams.test.reference;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The brute-force meaning of a table and of its re-keyed aggregation: a map of each key's last value
 * (a null value deletes), and a relational {@code GROUP BY} over it, recomputed from scratch whenever
 * asked. No state is updated incrementally, so nothing here can share a bug with Weir's operators.
 */
final class TableReferenceModel {

    private final Map<String, String> table = new HashMap<>();
    private final Map<String, Long> streamCounts = new TreeMap<>();

    /** A record of the table's topic: the last by offset wins; null deletes. */
    void update(String key, String value) {
        if (value == null) {
            table.remove(key);
        } else {
            table.put(key, value);
        }
    }

    /** A record of the stream aggregated without windows. */
    void click(String key) {
        streamCounts.merge(key, 1L, Long::sum);
    }

    /** Rows per value of {@code group}: groups without rows do not exist. */
    Map<String, Long> countBy(Function<String, String> group) {
        Map<String, Long> counts = new TreeMap<>();
        table.forEach((k, v) -> counts.merge(group.apply(v), 1L, Long::sum));
        return counts;
    }

    /** Per value, the sum of {@code weight} of the keys that have it. */
    Map<String, Long> sumBy(Function<String, Long> weight) {
        Map<String, Long> sums = new TreeMap<>();
        table.forEach((k, v) -> sums.merge(v, weight.apply(k), Long::sum));
        return sums;
    }

    Map<String, String> table() {
        return new TreeMap<>(table);
    }

    Map<String, Long> streamCounts() {
        return new TreeMap<>(streamCounts);
    }
}
