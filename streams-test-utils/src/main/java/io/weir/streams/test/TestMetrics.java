package io.weir.streams.test;

import java.util.Map;
import java.util.TreeMap;

/**
 * The metrics of a {@link TestDriver}'s tasks, summed over tasks, by processor node and name (see
 * {@link io.weir.streams.WeirMetrics}). The node of a windowed aggregation is named after its store;
 * a source node is {@code source:<topic>}, a sink node {@code sink:<topic>}. A snapshot: it does not change afterwards.
 */
public final class TestMetrics {

    private final Map<String, Long> values;

    TestMetrics(Map<String, Long> values) {
        this.values = new TreeMap<>(values);
    }

    /**
     * The metric {@code metric} of node {@code node} (0 if never recorded).
     *
     * @param node the node's name, e.g. {@code source:payments}
     * @param metric the metric's name, one of {@link io.weir.streams.WeirMetrics}
     * @return the value, summed over tasks
     */
    public long get(String node, String metric) {
        return values.getOrDefault(node + "/" + metric, 0L);
    }

    /**
     * The metric {@code metric} summed over every node.
     *
     * @param metric the metric's name, one of {@link io.weir.streams.WeirMetrics}
     * @return the sum over nodes and tasks
     */
    public long total(String metric) {
        return values.entrySet().stream()
                .filter(e -> e.getKey().endsWith("/" + metric))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    /**
     * Everything, as {@code node/metric -> value}.
     *
     * @return every value, sorted by {@code node/metric}
     */
    public Map<String, Long> all() {
        return values;
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
