package io.weir.benchmarks.runtime;

import io.weir.benchmarks.runtime.TableWorkload.Engine;
import io.weir.streams.test.kafka.EmbeddedKafkaBroker;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every join of the broker benchmark, at a tiny size, on the test kit's in-JVM broker. A run ends only
 * when the engine's {@code read_committed} output holds the model's results (the enrichment's one per
 * event, the windowed join's pairs, the relational join of the final tables), and a stream join's
 * output is then checked to hold no more; so reaching the end checks both engines. Timings are printed,
 * never asserted.
 */
class JoinBrokerBenchmarkSmokeTest {

    @Test
    void everyJoinRunsOnBothEnginesAndComesToTheModelsResults() throws Exception {
        Map<String, String> options = JoinBrokerBenchmark.parse(
                "--runs", "1",
                "--events", "2000",
                "--table-keys", "200",
                "--window-events", "2000",
                "--window-keys", "200",
                "--customers", "100",
                "--orders", "2000");
        JoinBrokerBenchmark.Results results;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.create()) {
            broker.start();
            try (JoinBrokerBenchmark bench = new JoinBrokerBenchmark(broker, options)) {
                results = bench.run("JoinBrokerBenchmarkSmokeTest");
            }
        }
        System.out.print(results.text());

        assertEquals(
                List.of("enrichment", "windowed (10 min)", "foreign-key"),
                results.workloads().stream()
                        .map(JoinBrokerBenchmark.WorkloadRuns::workload)
                        .toList());
        for (JoinBrokerBenchmark.WorkloadRuns w : results.workloads()) {
            JoinBrokerBenchmark.Row weir =
                    Objects.requireNonNull(w.runs().get(Engine.WEIR)).median();
            JoinBrokerBenchmark.Row ks =
                    Objects.requireNonNull(w.runs().get(Engine.KAFKA_STREAMS)).median();
            assertTrue(weir.results() > 0, w.workload() + ": Weir wrote nothing");
            if (!w.workload().equals("foreign-key")) {
                assertEquals(ks.results(), weir.results(), w.workload() + ": each engine exactly the model's results");
            }
        }
    }
}
