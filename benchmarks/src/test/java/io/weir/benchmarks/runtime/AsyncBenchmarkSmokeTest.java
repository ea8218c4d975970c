package io.weir.benchmarks.runtime;

import io.weir.streams.test.kafka.EmbeddedKafkaBroker;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The async benchmark at a tiny size on the test kit's in-JVM broker: each variant's run ends only once its
 * {@code read_committed} output holds every answer, and is then checked to hold each exactly once and each
 * key's in input order; the async operator must have had calls open at once. Timings are printed, never
 * asserted.
 */
class AsyncBenchmarkSmokeTest {

    @Test
    void everyVariantAnswersEachRecordOnceInKeyOrder() throws Exception {
        Map<String, String> options = AsyncBenchmark.parse(
                "--runs", "1",
                "--warmup-records", "0",
                "--records", "400",
                "--blocking-records", "40",
                "--keys", "20",
                "--delay-ms", "5",
                "--capacity", "10",
                "--latency-seconds", "2",
                "--latency-rate", "100",
                "--blocking-latency-rate", "20");
        AsyncBenchmark.Results results;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.create()) {
            broker.start();
            try (AsyncBenchmark bench = new AsyncBenchmark(broker, options)) {
                results = bench.run("AsyncBenchmarkSmokeTest");
            }
        }
        System.out.print(results.text());

        assertEquals(
                List.of(AsyncVariant.values()), List.copyOf(results.throughput().keySet()));
        results.throughput().forEach((variant, runs) -> assertEquals(1, runs.size(), variant.id()));
        AsyncBenchmark.Throughput async = Objects.requireNonNull(
                        results.throughput().get(AsyncVariant.WEIR_ASYNC))
                .get(0);
        assertEquals(400, async.records());
        assertTrue(async.mostOpen() > 1, "the async operator had one call open at a time");
        assertTrue(async.mostOpen() <= 10, "the async operator passed its capacity: " + async.mostOpen());
        assertEquals(
                List.of(AsyncVariant.values()),
                results.latencies().stream()
                        .map(AsyncBenchmark.Latency::variant)
                        .toList());
        results.latencies().forEach(l -> assertTrue(l.counted() > 0, l.variant().id()));
    }
}
