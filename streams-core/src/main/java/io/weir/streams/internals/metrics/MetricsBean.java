package io.weir.streams.internals.metrics;

import io.weir.streams.WeirMetric;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanNotificationInfo;
import javax.management.MBeanOperationInfo;

/**
 * The JMX bean of one place in an instance (one set of tags): an attribute per value its metrics expose.
 * A counter {@code x} gives {@code x-total} and {@code x-rate} (per second, over about 30 s); a gauge
 * gives {@code x}; a timer gives {@code x-total}, {@code x-rate}, {@code x-latency-avg} and {@code
 * x-latency-max} (ms; the average over about 30 s, NaN without events). Read-only; thread-safe.
 */
final class MetricsBean implements DynamicMBean {

    private record Value(WeirMetric metric, String description, String type, Supplier<Object> read) {}

    private final Map<String, Value> attributes = new LinkedHashMap<>();
    private final Set<WeirMetric> metrics = new LinkedHashSet<>();

    synchronized void add(WeirMetric m) {
        metrics.add(m);
        String name = m.name();
        String d = m.description();
        switch (m.kind()) {
            case GAUGE -> put(name, m, d, "java.lang.Double", m::value);
            case COUNTER -> {
                SampledWindow window = new SampledWindow(System.nanoTime(), m.value(), 0);
                put(name + JmxReporter.TOTAL, m, d, "java.lang.Long", () -> (long) m.value());
                put(
                        name + JmxReporter.RATE,
                        m,
                        "Per second over about 30 s: " + d,
                        "java.lang.Double",
                        () -> window.delta(System.nanoTime(), m.value(), 0).rate());
            }
            case TIMER -> {
                SampledWindow window = new SampledWindow(System.nanoTime(), m.value(), (double) m.totalTimeNanos());
                put(name + JmxReporter.TOTAL, m, d, "java.lang.Long", () -> (long) m.value());
                put(
                        name + JmxReporter.RATE,
                        m,
                        "Per second over about 30 s: " + d,
                        "java.lang.Double",
                        () -> window.delta(System.nanoTime(), m.value(), (double) m.totalTimeNanos())
                                .rate());
                put(
                        name + JmxReporter.LATENCY_AVG,
                        m,
                        "Average ms per event over about 30 s (NaN without events): " + d,
                        "java.lang.Double",
                        () -> window.delta(System.nanoTime(), m.value(), (double) m.totalTimeNanos())
                                        .average()
                                / 1e6);
                put(
                        name + JmxReporter.LATENCY_MAX,
                        m,
                        "Longest event of the last 30 to 60 s, in ms: " + d,
                        "java.lang.Double",
                        () -> m.maxTimeNanos() / 1e6);
            }
        }
    }

    /** Removes {@code m}'s attributes, unless another metric replaced it since; returns whether none are left. */
    synchronized boolean remove(WeirMetric m) {
        if (metrics.remove(m)) {
            attributes.values().removeIf(v -> v.metric() == m);
        }
        return metrics.isEmpty();
    }

    private void put(String attribute, WeirMetric m, String description, String type, Supplier<Object> read) {
        attributes.put(attribute, new Value(m, description, type, read));
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        Value v;
        synchronized (this) {
            v = attributes.get(attribute);
        }
        if (v == null) {
            throw new AttributeNotFoundException(attribute);
        }
        return v.read().get();
    }

    @Override
    public AttributeList getAttributes(String[] names) {
        AttributeList list = new AttributeList();
        for (String name : names) {
            try {
                list.add(new Attribute(name, getAttribute(name)));
            } catch (AttributeNotFoundException e) {
                // JMX's contract for getAttributes: attributes that cannot be read are left out.
            }
        }
        return list;
    }

    @Override
    public void setAttribute(Attribute attribute) {
        throw new UnsupportedOperationException("Weir's metrics are read-only");
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList();
    }

    @Override
    public Object invoke(String action, Object[] params, String[] signature) {
        throw new UnsupportedOperationException("Weir's metrics beans have no operations");
    }

    @Override
    public synchronized MBeanInfo getMBeanInfo() {
        MBeanAttributeInfo[] infos = attributes.entrySet().stream()
                .map(e -> new MBeanAttributeInfo(
                        e.getKey(), e.getValue().type(), e.getValue().description(), true, false, false))
                .toArray(MBeanAttributeInfo[]::new);
        return new MBeanInfo(
                MetricsBean.class.getName(),
                "Weir metrics",
                infos,
                null,
                new MBeanOperationInfo[0],
                new MBeanNotificationInfo[0]);
    }
}
