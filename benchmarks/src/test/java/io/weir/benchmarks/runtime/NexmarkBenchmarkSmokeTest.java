package io.weir.benchmarks.runtime;

import io.weir.streams.test.kafka.EmbeddedKafkaBroker;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Nexmark benchmark at a tiny size on the test kit's in-JVM broker: a stateless query and a windowed
 * one (a repartition to one key, windows closed by the closing events), each engine in a child JVM, each
 * run checked against the reference by the benchmark itself. Figures are printed; only their sanity is
 * asserted.
 */
class NexmarkBenchmarkSmokeTest {

    /** A benchmark's runs and its report, which is printed. */
    private record Benchmarked(List<NexmarkBenchmark.QueryRuns> runs, String report) {}

    /** The benchmark with {@code options}, on an in-JVM broker of its own. */
    private static Benchmarked benchmark(String... options) throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.create()) {
            broker.start();
            try (NexmarkBenchmark bench = new NexmarkBenchmark(broker, NexmarkBenchmark.parse(options))) {
                List<NexmarkBenchmark.QueryRuns> runs = bench.run();
                String report = bench.report("NexmarkBenchmarkSmokeTest", runs);
                System.out.print(report);
                return new Benchmarked(runs, report);
            }
        }
    }

    @Test
    void everyRunComesToTheReferenceResults() throws Exception {
        Benchmarked result = benchmark(
                "--events", "30000", "--queries", "q0,q7", "--engines", "weir,kafka-streams,ceiling", "--runs", "1");
        List<NexmarkBenchmark.QueryRuns> runs = result.runs();
        String report = result.report();

        assertEquals(
                List.of("q0", "q7"),
                runs.stream().map(NexmarkBenchmark.QueryRuns::query).toList());
        for (NexmarkBenchmark.QueryRuns q : runs) {
            assertEquals(Map.of(), q.failures(), q.query());
            // The ceiling runs q0 only.
            assertEquals(
                    q.query().equals("q0")
                            ? Set.of(NexmarkEngine.WEIR, NexmarkEngine.KAFKA_STREAMS, NexmarkEngine.CEILING)
                            : Set.of(NexmarkEngine.WEIR, NexmarkEngine.KAFKA_STREAMS),
                    q.runs().keySet());
            q.runs().values().forEach(r -> {
                NexmarkBenchmark.Row row = r.median();
                assertTrue(row.results() > 0, row.toString());
                assertTrue(row.cpuSeconds() > 0, row.toString());
                if (q.query().equals("q7")) {
                    assertTrue(row.stateBytes() > 0, "the window store of " + row);
                }
            });
        }
        assertTrue(report.contains("q0 x1 ceiling"), report);
        // The chart: per query a bar for each library and Flink's published figure (q0 and q7 have one),
        // plus the background and the legend's three keys.
        String svg = NexmarkChart.svg(runs, "smoke");
        assertTrue(svg.startsWith("<svg") && svg.endsWith("</svg>\n"), svg);
        assertTrue(svg.contains(">q0</text>") && svg.contains(">q7</text>"), svg);
        assertEquals(1 + 2 * 3 + 3, svg.split("<rect", -1).length - 1, svg);
    }

    /**
     * Two partitions and two instances of each engine: q7's windows over a repartition to one key come to
     * the reference in both, Kafka Streams included, because the closing events are appended only once
     * both upstream partitions have passed everything on (it dropped a window's highest bid as late when
     * they were pre-loaded with the input). The input spans 2 s of event time, less than the grace, so
     * the upstream tasks' different speeds alone cannot make a record late in Kafka Streams.
     */
    @Test
    void severalPartitionsAndInstancesComeToTheReferenceResults() throws Exception {
        List<NexmarkBenchmark.QueryRuns> runs = benchmark(
                        "--events", "20000", "--partitions", "2", "--queries", "q7", "--instances", "2", "--runs", "1")
                .runs();
        NexmarkBenchmark.QueryRuns q7 = runs.get(0);
        assertEquals(Map.of(), q7.failures());
        assertEquals(
                Set.of(NexmarkEngine.WEIR, NexmarkEngine.KAFKA_STREAMS),
                q7.runs().keySet());
        q7.runs().values().forEach(r -> assertEquals(2, r.median().instances()));
    }
}
