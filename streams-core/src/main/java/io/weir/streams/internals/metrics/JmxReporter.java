package io.weir.streams.internals.metrics;

import io.weir.streams.MetricsListener;
import io.weir.streams.WeirMetric;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * Registers an instance's metrics as JMX beans in the platform MBean server, one bean per set of tags:
 * {@code io.weir.streams:type=<level>,application=..,client=..[,thread=..][,task=..][,node=..|store=..]},
 * the level in lower case ({@code application}, {@code thread}, {@code task}, {@code node}, {@code
 * store}). A bean goes away with its last metric, so a task that moves away leaves no bean behind. Tag
 * values with characters JMX reserves are quoted. Thread-safe (called under the registry's lock).
 */
public final class JmxReporter implements MetricsListener, AutoCloseable {

    public static final String DOMAIN = "io.weir.streams";

    private static final Logger log = LoggerFactory.getLogger(JmxReporter.class);

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final Map<ObjectName, MetricsBean> beans = new HashMap<>();

    /**
     * The attributes a metric {@code name} of {@code kind} gives its bean: {@code x-total} and {@code x-rate}
     * for a counter, {@code x} for a gauge, and for a timer also {@code x-latency-avg} and {@code x-latency-max}.
     */
    public static List<String> attributes(String name, WeirMetric.Kind kind) {
        return switch (kind) {
            case GAUGE -> List.of(name);
            case COUNTER -> List.of(name + TOTAL, name + RATE);
            case TIMER -> List.of(name + TOTAL, name + RATE, name + LATENCY_AVG, name + LATENCY_MAX);
        };
    }

    static final String TOTAL = "-total";
    static final String RATE = "-rate";
    static final String LATENCY_AVG = "-latency-avg";
    static final String LATENCY_MAX = "-latency-max";

    /** The name of the bean that holds {@code metric}. */
    public static ObjectName objectName(WeirMetric metric) {
        StringBuilder name = new StringBuilder(DOMAIN)
                .append(":type=")
                .append(metric.level().name().toLowerCase(Locale.ROOT));
        metric.tags().forEach((k, v) -> name.append(',').append(k).append('=').append(quoteIfNeeded(v)));
        try {
            return new ObjectName(name.toString());
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("Metric tags make no JMX name: " + metric.tags(), e);
        }
    }

    private static String quoteIfNeeded(String value) {
        for (int i = 0; i < value.length(); i++) {
            if (",=:\"*?\n".indexOf(value.charAt(i)) >= 0) {
                return ObjectName.quote(value);
            }
        }
        return value;
    }

    @Override
    public synchronized void metricAdded(WeirMetric metric) {
        ObjectName name = objectName(metric);
        MetricsBean bean = beans.get(name);
        if (bean == null) {
            bean = new MetricsBean();
            try {
                server.registerMBean(bean, name);
            } catch (InstanceAlreadyExistsException e) {
                log.warn(
                        "JMX bean {} exists already (two instances with one client id in this JVM?); "
                                + "its metrics are not registered",
                        name);
                return;
            } catch (JMException e) {
                log.warn("Registering JMX bean {} failed", name, e);
                return;
            }
            beans.put(name, bean);
        }
        bean.add(metric);
    }

    @Override
    public synchronized void metricRemoved(WeirMetric metric) {
        ObjectName name = objectName(metric);
        MetricsBean bean = beans.get(name);
        if (bean != null && bean.remove(metric)) {
            beans.remove(name);
            unregister(name);
        }
    }

    /** Unregisters every bean this reporter registered. */
    @Override
    public synchronized void close() {
        beans.keySet().forEach(this::unregister);
        beans.clear();
    }

    private void unregister(ObjectName name) {
        try {
            server.unregisterMBean(name);
        } catch (InstanceNotFoundException e) {
            log.debug("JMX bean {} was unregistered already", name);
        } catch (JMException e) {
            log.warn("Unregistering JMX bean {} failed", name, e);
        }
    }
}
