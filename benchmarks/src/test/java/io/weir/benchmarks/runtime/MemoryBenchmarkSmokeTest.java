package io.weir.benchmarks.runtime;

import io.weir.streams.test.kafka.EmbeddedKafkaBroker;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memory benchmark at a tiny size on the test kit's in-JVM broker: each child instance consumes its
 * whole input (the benchmark waits for it) and is measured, without and with the bound. Sizes are
 * printed, and only their consistency is asserted.
 */
class MemoryBenchmarkSmokeTest {

    @Test
    void everyTaskCountIsMeasuredWithoutAndWithTheBound() throws Exception {
        List<MemoryBenchmark.Row> rows;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.create()) {
            broker.start();
            try (MemoryBenchmark bench = new MemoryBenchmark(
                    broker,
                    MemoryBenchmark.parse(
                            "--tasks", "2", "--keys-per-task", "100", "--heap-mib", "64", "--bound-mib", "16"))) {
                rows = bench.run();
            }
        }
        System.out.print(MemoryBenchmark.report("MemoryBenchmarkSmokeTest", rows, 16, 64));

        assertEquals(2, rows.size());
        for (MemoryBenchmark.Row row : rows) {
            assertEquals(2, row.tasks());
            assertTrue(row.rssBytes() > row.jvmBytes() / 2 && row.peakRssBytes() >= row.rssBytes(), row.toString());
        }
        MemoryBenchmark.Row bounded = rows.get(1);
        assertTrue(bounded.bounded());
        assertTrue(
                bounded.rocksDbCacheBytes() > 0 && bounded.rocksDbCacheBytes() <= 16L * 1024 * 1024,
                "the shared cache is used, within its bound: " + bounded);
    }
}
