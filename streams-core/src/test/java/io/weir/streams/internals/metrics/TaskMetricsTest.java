package io.weir.streams.internals.metrics;

import io.weir.streams.MetricsListener;
import io.weir.streams.WeirMetric;
import io.weir.streams.WeirMetrics;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TaskMetricsTest {

    private final MetricsRegistry registry = new MetricsRegistry();
    private final MetricGroup task = MetricGroup.application(registry, "app", "weir-app-1234")
            .child(WeirMetric.Level.THREAD, "t0")
            .child(WeirMetric.Level.TASK, "0_1");

    @Test
    void aClosedTaskStopsReportingGaugesButKeepsItsCounts() {
        TaskMetrics metrics = new TaskMetrics("0_1");
        metrics.counter("counts", WeirMetrics.LATE_RECORDS_DROPPED).increment(3);
        metrics.gauge("counts", WeirMetrics.OPEN_WINDOWS, () -> 7);
        assertEquals(Map.of("counts/late-records-dropped", 3L, "counts/open-windows", 7L), metrics.snapshot());

        metrics.unpublish();

        assertEquals(Map.of("counts/late-records-dropped", 3L), metrics.snapshot());
    }

    @Test
    void publishedMetricsCarryTheirLevelAndTagsAndLeaveWhenTheTaskCloses() {
        TaskMetrics metrics = new TaskMetrics("0_1");
        metrics.counter("counts", WeirMetrics.LATE_RECORDS_DROPPED).increment(2);
        metrics.publish(task);
        metrics.counter("counts-store", WeirMetrics.EXPIRED_PUTS_DROPPED).increment();
        metrics.taskGauge(WeirMetrics.WATERMARK, () -> 42);

        Map<String, WeirMetric> byName = new java.util.HashMap<>();
        registry.all().forEach(m -> byName.put(m.name(), m));
        WeirMetric late = byName.get(WeirMetrics.LATE_RECORDS_DROPPED);
        assertEquals(WeirMetric.Level.NODE, late.level());
        assertEquals(WeirMetric.Kind.COUNTER, late.kind());
        assertEquals(
                List.of("application", "client", "thread", "task", "node"),
                List.copyOf(late.tags().keySet()));
        assertEquals("counts", late.tags().get("node"));
        assertEquals(2.0, late.value());
        assertEquals(
                WeirMetric.Level.STORE,
                byName.get(WeirMetrics.EXPIRED_PUTS_DROPPED).level());
        assertEquals(
                "counts-store",
                byName.get(WeirMetrics.EXPIRED_PUTS_DROPPED).tags().get("store"));
        assertEquals(42.0, byName.get(WeirMetrics.WATERMARK).value());
        assertEquals("0_1", byName.get(WeirMetrics.WATERMARK).tags().get("task"));

        metrics.unpublish();

        assertTrue(registry.all().isEmpty(), registry.all().toString());
    }

    @Test
    void aListenerAddedLateIsToldOfEveryMetricPresentThenOfChanges() {
        TaskMetrics metrics = new TaskMetrics("0_1");
        metrics.publish(task);
        metrics.counter("source", WeirMetrics.RECORDS_CONSUMED);
        List<String> events = new ArrayList<>();
        registry.addListener(new MetricsListener() {
            @Override
            public void metricAdded(WeirMetric metric) {
                events.add("+" + metric.name());
            }

            @Override
            public void metricRemoved(WeirMetric metric) {
                events.add("-" + metric.name());
            }
        });
        metrics.gauge("source", WeirMetrics.OPEN_WINDOWS, () -> 1);
        metrics.unpublish();

        assertEquals(List.of("+records-consumed", "+open-windows", "-records-consumed", "-open-windows"), events);
    }

    @Test
    void aMetricWeirDoesNotDefineIsRefusedEvenUnpublished() {
        TaskMetrics metrics = new TaskMetrics("0_1");
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> metrics.counter("n", "made-up-metric"));
        assertTrue(e.getMessage().contains("made-up-metric"), e.getMessage());
    }

    @Test
    void aTimerReportsCountTotalAndTheLongestRecentEvent() {
        Timer timer = new Timer();
        timer.record(4, 4_000);
        timer.record(10_000);
        assertEquals(5, timer.count());
        assertEquals(14_000, timer.totalNanos());
        assertEquals(10_000, timer.maxNanos());
    }
}
