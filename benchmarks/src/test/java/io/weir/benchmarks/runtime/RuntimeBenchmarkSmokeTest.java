package io.weir.benchmarks.runtime;

import io.weir.streams.test.kafka.EmbeddedKafkaBroker;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every phase of the runtime benchmark, at a tiny size, on the test kit's in-JVM broker: it runs to
 * the end and every engine's output says what the input does. Timings are printed, never asserted.
 */
class RuntimeBenchmarkSmokeTest {

    @Test
    void everyPhaseRunsAndEveryEngineCountsTheInputExactly() throws Exception {
        RuntimeOptions options = RuntimeOptions.parse(new String[] {
            "--records",
            "6000",
            "--keys",
            "200",
            "--per-minute",
            "1500",
            "--warmup",
            "1000",
            "--rate",
            "500",
            "--duration",
            "8",
            "--restore-keys",
            "3000",
            "--restore-engines",
            "weir,ks-update,ks-suppress",
            "--repeats",
            "2"
        });
        RuntimeBenchmark.Results results;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.create()) {
            broker.start();
            results = RuntimeBenchmark.run(broker, options, "RuntimeBenchmarkSmokeTest", "in-JVM test broker");
        }
        System.out.print(results.text());

        List<ThroughputPhase.Row> throughput =
                results.throughput().stream().flatMap(r -> r.all().stream()).toList();
        assertEquals(2 * AppKind.values().length, throughput.size(), "two runs of every engine");
        assertEquals(
                Set.of(AppKind.values()),
                throughput.stream().map(ThroughputPhase.Row::kind).collect(Collectors.toSet()));
        for (ThroughputPhase.Row row : throughput) {
            assertTrue(row.check().exact(), row.kind().id() + ": " + row.check());
            assertTrue(row.check().windows() > 0, row.kind().id() + " wrote nothing");
        }
        // The update engines end with every window of the input; the once-per-window engines each wrote
        // the windows that closed, exactly once each, with the same counts.
        long windows = throughput.stream()
                .filter(r -> r.kind() == AppKind.CEILING)
                .findFirst()
                .orElseThrow()
                .check()
                .windows();
        throughput.stream()
                .filter(r -> !r.kind().oncePerWindow())
                .forEach(
                        r -> assertEquals(windows, r.check().windows(), r.kind().id()));

        for (LatencyPhase.Row row : results.latency()) {
            assertTrue(row.check().exact(), row.kind().id() + ": " + row.check());
            assertEquals(0, row.undue(), row.kind().id() + " wrote an output no input made due");
            // Kafka Streams' onWindowClose() looks for closed windows only when a record arrives at least
            // a second (of wall-clock time) after its last look: at the end of a short run it may not look again.
            if (row.kind() != AppKind.KS_CLOSE) {
                assertTrue(row.outputs() > 0, row.kind().id() + " wrote nothing while the load ran");
            }
        }
        LatencyPhase.Row weir = results.latency().stream()
                .filter(r -> r.kind() == AppKind.WEIR)
                .findFirst()
                .orElseThrow();
        assertEquals(weir.windowsDue(), weir.windowsSeen(), "Weir wrote every window the input closed");

        List<RestorePhase.Row> restore =
                results.restore().stream().flatMap(r -> r.all().stream()).toList();
        assertEquals(12, restore.size(), "two restores of both stores of three engines");
        for (RestorePhase.Row row : restore) {
            assertTrue(row.records() > 0, row.kind().id() + " " + row.store() + " restored nothing");
        }
        assertTrue(results.text().contains("median of 2 runs"), "the report says what its rows are");
        assertTrue(
                restore.stream()
                        .filter(r -> r.store().equals(RestorePhase.KEY_STORE))
                        .allMatch(r -> r.records() >= 3000),
                "every key store holds every key");
    }
}
