package io.weir.benchmarks.failover;

import io.weir.streams.test.kafka.EmbeddedKafkaBroker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The failover benchmark at a tiny size on the test kit's in-JVM broker: every scenario runs on both
 * engines with instances in child JVMs, and each scenario ends only when every output partition flows
 * again. Timings are printed, never asserted; what is asserted is that a killed Weir instance's tasks
 * were taken over from standby copies, replaying less than one task's changelog.
 */
class FailoverBenchmarkSmokeTest {

    private static final int KEYS = 3_000;
    private static final int PARTITIONS = 3;

    @Test
    void everyScenarioRunsOnBothEnginesAndAKilledWeirInstanceIsReplacedByItsStandbys(@TempDir Path logs)
            throws Exception {
        Map<String, String> options = FailoverBenchmark.parse(
                "--keys",
                Integer.toString(KEYS),
                "--rate",
                "300",
                "--partitions",
                Integer.toString(PARTITIONS),
                "--lag-limit",
                "500",
                "--logs",
                logs.toString());
        List<FailoverBenchmark.Outcome> outcomes;
        String report;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.create()) {
            broker.start();
            try (FailoverBenchmark bench = new FailoverBenchmark(broker, options)) {
                outcomes = bench.run();
                report = bench.report("FailoverBenchmarkSmokeTest", outcomes);
            }
        }
        System.out.print(report);
        assertEquals(
                List.of(
                        "weir/scale-out",
                        "weir/kill-restart",
                        "weir/kill",
                        "weir/rolling",
                        "kafka-streams/scale-out",
                        "kafka-streams/kill-restart",
                        "kafka-streams/kill",
                        "kafka-streams/rolling"),
                outcomes.stream().map(o -> o.engine() + "/" + o.scenario()).toList());
        FailoverBenchmark.Outcome kill = outcomes.get(2);
        assertTrue(
                kill.replayed() < KEYS / PARTITIONS,
                "the killed instance's task was taken over from a standby copy: replayed " + kill.replayed());
    }
}
