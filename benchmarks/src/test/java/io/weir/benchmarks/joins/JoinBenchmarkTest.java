package io.weir.benchmarks.joins;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The join benchmark compares like with like: on small inputs both engines give the same results for
 * each workload (and the windowed join the model's pair count), so the figures it prints are for the
 * same work.
 */
class JoinBenchmarkTest {

    @Test
    void bothEnginesEnrichEveryEventAlike() {
        JoinBenchmark.Workload workload = JoinBenchmark.enrichment(200, 2_000, false);
        JoinBenchmark.Run weir = JoinBenchmark.weir(workload);
        JoinBenchmark.Run ks = JoinBenchmark.kafkaStreams(workload);
        assertEquals(2_000, weir.results());
        assertTrue(weir.sameResults(ks), "the same results");
        assertEquals(
                2_000,
                JoinBenchmark.weir(JoinBenchmark.enrichment(200, 2_000, true)).results(),
                "aligned too");
    }

    @Test
    void bothEnginesFindTheModelsPairs() {
        JoinBenchmark.Workload workload = JoinBenchmark.windowed(2_000, 300);
        JoinBenchmark.Run weir = JoinBenchmark.weir(workload);
        assertTrue(weir.results() > 100, "pairs: " + weir.results());
        assertEquals(JoinBenchmark.modelPairs(workload.input()), weir.results());
        assertTrue(weir.sameResults(JoinBenchmark.kafkaStreams(workload)), "the same pairs");
    }

    @Test
    void bothEnginesEndWithTheSameForeignKeyJoin() {
        JoinBenchmark.Workload workload = JoinBenchmark.foreignKey(50, 2_000);
        JoinBenchmark.Run weir = JoinBenchmark.weir(workload);
        assertTrue(weir.rows().size() > 500, "rows: " + weir.rows().size());
        assertTrue(weir.sameResults(JoinBenchmark.kafkaStreams(workload)), "the same final rows");
    }
}
