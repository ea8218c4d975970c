package io.weir.benchmarks;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The benchmark compares like with like: on the same input every variant ends with the same count
 * for every (key, window), and those counts are the input's own — no record dropped as late, none
 * counted twice. The variants that emit once per window (Weir's on-time pane, Kafka Streams'
 * {@code onWindowClose()}) emit exactly one result per window.
 */
class EnginesAgreeTest {

    private static final int RECORDS = 20_000;
    private static final int KEYS = 1_000;
    // 10 ms apart, the input spans 200 s of event time: four windows, with out-of-order records
    // crossing every window boundary.
    private static final long INTERVAL_MS = 10;
    private static final String FLUSH_KEY = "flush";

    @Test
    void everyVariantCountsEveryWindowOfTheInput() {
        Workload workload = Workload.generate(RECORDS, KEYS, INTERVAL_MS);
        Map<OutputTally.WindowKey, Long> expected = countsOf(workload);
        for (Variant variant : Variant.values()) {
            OutputTally tally = run(variant, workload);
            Map<OutputTally.WindowKey, Long> counts = new HashMap<>(tally.latestCounts());
            counts.keySet().removeIf(w -> w.key().equals(FLUSH_KEY));
            assertEquals(expected, counts, variant.id());
            if (!variant.isKafkaStreamsEveryUpdate()) {
                assertEquals(expected.size(), tally.results(), variant.id() + ": one result per window");
            }
        }
    }

    /**
     * Every record, then one record two minutes later under a key of its own: it moves both engines'
     * event time past the end of every window of the input plus 30 s, so that every window closes.
     */
    private static OutputTally run(Variant variant, Workload workload) {
        OutputTally tally = OutputTally.decoding();
        try (Engine engine = variant.open()) {
            MeasuredRun.pipe(engine, workload, workload.size(), tally);
            long flushTime = workload.arrivalTime(workload.size() - 1) + 120_000;
            engine.pipe(FLUSH_KEY, flushTime, flushTime);
            engine.drain(tally);
        }
        return tally;
    }

    private static Map<OutputTally.WindowKey, Long> countsOf(Workload workload) {
        Map<OutputTally.WindowKey, Long> counts = new HashMap<>();
        for (int i = 0; i < workload.size(); i++) {
            long start = workload.eventTime(i) - Math.floorMod(workload.eventTime(i), 60_000L);
            counts.merge(new OutputTally.WindowKey(workload.key(i), start), 1L, Long::sum);
        }
        return counts;
    }
}
