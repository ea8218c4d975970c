package io.weir.benchmarks.runtime;

import io.weir.benchmarks.runtime.TableWorkload.Engine;
import io.weir.streams.test.kafka.EmbeddedKafkaBroker;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every phase of the table benchmark, at a tiny size, on the test kit's in-JVM broker. Each timed run
 * ends only when the engine's output holds the expected final value of every key, so reaching the end
 * checks both engines' results. Timings are printed, never asserted.
 */
class TableBenchmarkSmokeTest {

    @Test
    void everyPhaseRunsAndBothEnginesReachTheExpectedOutput() throws Exception {
        TableOptions options = TableOptions.parse(
                "--lines",
                "1500",
                "--vocabulary",
                "300",
                "--updates",
                "3000",
                "--users",
                "400",
                "--regions",
                "20",
                "--restore-keys",
                "2000",
                "--heap-keys",
                "100,1000",
                "--heap-records",
                "2000",
                "--heap-engines",
                "weir,kafka-streams",
                "--runs",
                "1");
        TableBenchmark.Results results;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.create()) {
            broker.start();
            try (TableBenchmark bench = new TableBenchmark(broker, options)) {
                results = bench.run("TableBenchmarkSmokeTest");
            }
        }
        System.out.print(results.text());

        assertEquals(
                Set.of(TableWorkload.WORD_COUNT, TableWorkload.REGROUP),
                results.throughput().keySet());
        for (List<Runs<TableBenchmark.ThroughputRow>> runs :
                results.throughput().values()) {
            assertEquals(
                    Set.of(Engine.values()),
                    engines(runs.stream().map(r -> r.median().engine()).toList()));
            runs.forEach(
                    r -> assertTrue(r.median().output() > 0, r.median().engine().id() + " wrote nothing"));
        }
        assertEquals(
                Set.of(Engine.values()),
                engines(results.restore().runs().stream()
                        .map(r -> r.median().engine())
                        .toList()));
        // Both write at least one changelog record per key, so a restore replays at least that many.
        results.restore()
                .runs()
                .forEach(r -> assertTrue(
                        r.median().records() >= 2000, r.median().engine().id() + ": " + r));
        results.restore().ceiling().forEach(read -> assertTrue(read.records() >= 2000, read.toString()));
        assertEquals(4, results.heap().size(), "two key counts, two engines");
    }

    private static Set<Engine> engines(List<Engine> engines) {
        return engines.stream().collect(Collectors.toSet());
    }
}
