package io.weir.streams.test.reference;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What a windowed aggregation produced from one stream: its panes and late-data side output (each a
 * multiset: order is not compared) and its counters.
 */
record Outcome(List<Pane> panes, List<RefusedRecord> refused, Counters counters) {

    Outcome {
        panes = sorted(panes, Pane.ORDER);
        refused = sorted(refused, RefusedRecord.ORDER);
    }

    /**
     * The metrics of the aggregation node, summed over tasks (see {@link io.weir.streams.WeirMetrics});
     * {@code sessionsMerged} is 0 but for session windows.
     */
    record Counters(
            long lateRecordsAdded,
            long lateRecordsDropped,
            long futureRecordsDropped,
            long onTimePanes,
            long latePanes,
            long sideOutputRecords,
            long sessionsMerged) {}

    private static <T> List<T> sorted(List<T> items, Comparator<T> order) {
        List<T> copy = new ArrayList<>(items);
        copy.sort(order);
        return List.copyOf(copy);
    }
}
