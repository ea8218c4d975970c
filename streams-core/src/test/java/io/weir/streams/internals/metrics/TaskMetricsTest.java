package io.weir.streams.internals.metrics;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TaskMetricsTest {

    @Test
    void aClosedTaskStopsReportingGaugesButKeepsItsCounts() {
        TaskMetrics metrics = new TaskMetrics();
        metrics.counter("counts", "late-records-dropped").increment(3);
        metrics.gauge("counts", "open-windows", () -> 7);
        assertEquals(Map.of("counts/late-records-dropped", 3L, "counts/open-windows", 7L), metrics.snapshot());

        metrics.clearGauges();

        assertEquals(Map.of("counts/late-records-dropped", 3L), metrics.snapshot());
    }
}
