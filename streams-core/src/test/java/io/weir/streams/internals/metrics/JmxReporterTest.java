package io.weir.streams.internals.metrics;

import io.weir.streams.WeirMetric;
import io.weir.streams.WeirMetrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JmxReporterTest {

    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

    private final MetricsRegistry registry = new MetricsRegistry();
    private final JmxReporter reporter = new JmxReporter();
    private final MetricGroup task;

    JmxReporterTest() {
        registry.addListener(reporter);
        task = MetricGroup.application(registry, "jmx-unit", "weir-jmx-unit-1")
                .child(WeirMetric.Level.THREAD, "weir-jmx-unit-1-thread-0")
                .child(WeirMetric.Level.TASK, "0_3");
    }

    @AfterEach
    void close() {
        reporter.close();
    }

    @Test
    void beansAreNamedByLevelThenTagsAndReservedCharactersAreQuoted() throws Exception {
        Counter consumed = new Counter();
        consumed.increment(5);
        task.child(WeirMetric.Level.NODE, "source:orders").counter(WeirMetrics.RECORDS_CONSUMED, consumed);

        ObjectName name = new ObjectName("io.weir.streams:type=node,application=jmx-unit,client=weir-jmx-unit-1,"
                + "thread=weir-jmx-unit-1-thread-0,task=0_3,node=\"source:orders\"");
        assertTrue(JMX.isRegistered(name));
        assertEquals(5L, JMX.getAttribute(name, "records-consumed-total"));
        assertEquals(0.0, (double) JMX.getAttribute(name, "records-consumed-rate"), 1e-9);
    }

    @Test
    void eachKindExposesItsAttributes() throws Exception {
        Timer process = new Timer();
        process.record(10, 20_000_000);
        task.timer(WeirMetrics.PROCESS, process);
        task.gauge(WeirMetrics.WATERMARK, () -> 1234);
        ObjectName name = JmxReporter.objectName(registry.all().get(0));

        Set<String> attributes = new TreeSet<>();
        Arrays.stream(JMX.getMBeanInfo(name).getAttributes())
                .map(MBeanAttributeInfo::getName)
                .forEach(attributes::add);
        assertEquals(
                Set.of("process-total", "process-rate", "process-latency-avg", "process-latency-max", "watermark"),
                attributes);
        assertEquals(10L, JMX.getAttribute(name, "process-total"));
        assertEquals(2.0, (double) JMX.getAttribute(name, "process-latency-max"), 1e-9);
        assertEquals(1234.0, JMX.getAttribute(name, "watermark"));
        // Nothing recorded since the window began: no average to give.
        assertTrue(Double.isNaN((double) JMX.getAttribute(name, "process-latency-avg")));
    }

    @Test
    void aBeanGoesWithItsLastMetric() throws Exception {
        RegisteredMetric watermark = task.gauge(WeirMetrics.WATERMARK, () -> 1);
        RegisteredMetric lag = task.gauge(WeirMetrics.WATERMARK_LAG_MS, () -> 2);
        ObjectName name = JmxReporter.objectName(watermark);

        task.remove(watermark);
        assertTrue(JMX.isRegistered(name));
        assertFalse(Arrays.stream(JMX.getMBeanInfo(name).getAttributes())
                .anyMatch(a -> a.getName().equals(WeirMetrics.WATERMARK)));

        task.remove(lag);
        assertFalse(JMX.isRegistered(name));
    }

    @Test
    void closingUnregistersEveryBean() throws Exception {
        task.gauge(WeirMetrics.WATERMARK, () -> 1);
        task.child(WeirMetric.Level.STORE, "counts").gauge(WeirMetrics.STATE_ENTRIES, () -> 3);
        assertEquals(
                2,
                JMX.queryNames(new ObjectName("io.weir.streams:application=jmx-unit,*"), null)
                        .size());

        reporter.close();

        assertTrue(JMX.queryNames(new ObjectName("io.weir.streams:application=jmx-unit,*"), null)
                .isEmpty());
    }
}
