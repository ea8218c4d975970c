package io.weir.streams.runtime;

import io.weir.streams.StreamsConfig;
import io.weir.streams.ThreadMetadata;
import io.weir.streams.WeirMetric;
import io.weir.streams.WeirStreams;
import io.weir.streams.state.RocksDbConfigSetter;
import io.weir.streams.state.RocksDbStoreOptions;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Weir's metrics as an operator reads them, over JMX, from instances running against a broker: one rule
 * per test. The bean names are the documented scheme ({@code io.weir.streams:type=<level>,application=..,
 * client=..,thread=..,task=..,node=..|store=..}).
 */
@ExtendWith(KafkaBrokerExtension.class)
class MetricsIntegrationTest {

    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

    private static Set<ObjectName> beans(String pattern) throws Exception {
        return JMX.queryNames(new ObjectName(pattern), null);
    }

    private static double sum(Set<ObjectName> beans, String attribute) throws Exception {
        double sum = 0;
        for (ObjectName bean : beans) {
            sum += ((Number) JMX.getAttribute(bean, attribute)).doubleValue();
        }
        return sum;
    }

    private static double value(String bean, String attribute) throws Exception {
        Set<ObjectName> found = beans(bean);
        assertEquals(1, found.size(), "one bean " + bean + ": " + found);
        return ((Number) JMX.getAttribute(found.iterator().next(), attribute)).doubleValue();
    }

    private static String client(WeirStreams app) {
        return app.allMetrics().get(0).tags().get("client");
    }

    @Test
    void beanValuesMoveAsRecordsFlow(KafkaBroker broker, @TempDir Path dir) throws Exception {
        broker.createTopic("jmx-in", 2);
        broker.createTopic("jmx-out", 2);
        CountInput input = new CountInput(broker, "jmx-in", 2);
        try (WeirStreams app =
                WindowedCountApp.instance(broker, "jmx", "jmx-in", "jmx-out", dir, StreamsConfig.EXACTLY_ONCE)) {
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == WeirStreams.State.RUNNING);
            String scope = "io.weir.streams:type=%s,application=jmx,client=" + client(app) + ",";
            assertEquals(2, value("io.weir.streams:type=application,application=jmx,client=" + client(app), "state"));
            assertEquals(
                    1,
                    value("io.weir.streams:type=application,application=jmx,client=" + client(app), "alive-threads"));

            input.produce(1_000, 0, 30_000, CountInput.randomKeys(20, 1));
            input.flush(60_000);
            Set<ObjectName> sources = beans(scope.formatted("node") + "node=\"source:jmx-in\",*");
            assertEquals(2, sources.size(), "a source bean per task: " + sources);
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertEquals(1_002, sum(sources, "records-consumed-total")));
            Set<ObjectName> threads = beans(scope.formatted("thread") + "*");
            assertEquals(1, threads.size());
            ObjectName thread = threads.iterator().next();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertEquals(1_002, sum(threads, "process-total"));
                assertTrue(sum(threads, "commit-total") > 0);
                assertTrue(
                        sum(beans(scope.formatted("node") + "node=\"sink:jmx-out\",*"), "records-produced-total") > 0);
                assertTrue(sum(beans(scope.formatted("store") + "store=counts,*"), "state-entries") > 0);
            });
            assertEquals(2.0, ((Number) JMX.getAttribute(thread, "tasks-running")).doubleValue());
            assertTrue(((Number) JMX.getAttribute(thread, "process-rate")).doubleValue() > 0);
            assertTrue(((Number) JMX.getAttribute(thread, "commit-latency-max")).doubleValue() > 0);
            for (ObjectName task : beans(scope.formatted("task") + "*")) {
                long watermark = ((Number) JMX.getAttribute(task, "watermark")).longValue();
                assertTrue(watermark >= input.base() + 59_999, task + " watermark " + watermark);
                assertTrue(((Number) JMX.getAttribute(task, "watermark-lag-ms")).longValue() >= 0);
                assertTrue(((Number) JMX.getAttribute(task, "process-total")).longValue() > 0);
            }
            assertEquals(
                    1_002,
                    app.allMetrics().stream()
                            .filter(m -> m.name().equals("records-consumed"))
                            .mapToDouble(WeirMetric::value)
                            .sum());
        }
        assertTrue(beans("io.weir.streams:application=jmx,*").isEmpty(), "no bean outlives its instance");

        // A new instance with an empty state directory restores the counts from their changelogs.
        try (WeirStreams restored = WindowedCountApp.instance(
                broker, "jmx", "jmx-in", "jmx-out", dir.resolve("fresh"), StreamsConfig.EXACTLY_ONCE)) {
            restored.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> restored.state() == WeirStreams.State.RUNNING);
            Set<ObjectName> stores =
                    beans("io.weir.streams:type=store,application=jmx,client=" + client(restored) + ",store=counts,*");
            assertEquals(2, stores.size(), stores.toString());
            assertTrue(sum(stores, "records-restored-total") > 0);
            assertEquals(0, sum(stores, "restore-remaining-records"));
        }
    }

    /**
     * With rocksdb.memory.max.bytes, every store of the instance opens through the user's setter with the
     * shared cache, and the instance reports the cache's use against the bound; each thread reports what its
     * tasks' write-back caches hold against its part of statestore.cache.max.bytes.
     */
    @Test
    void aBoundedInstanceReportsItsRocksDbMemoryAndItsCacheUse(KafkaBroker broker, @TempDir Path dir) throws Exception {
        broker.createTopic("jmx-mem-in", 3);
        broker.createTopic("jmx-mem-out", 3);
        CountInput input = new CountInput(broker, "jmx-mem-in", 3);
        // Below three stores' memtables: the thread must flush the quiet ones to stay within it.
        long bound = 2L * 1024 * 1024;
        long cacheBytes = 256L * 1024;
        SeenStores.stores.clear();
        try (WeirStreams app = WindowedCountApp.instance(
                broker,
                "jmx-mem",
                "jmx-mem-in",
                "jmx-mem-out",
                dir,
                StreamsConfig.EXACTLY_ONCE,
                Map.of(
                        StreamsConfig.ROCKSDB_MEMORY_MAX_BYTES, bound,
                        StreamsConfig.ROCKSDB_CONFIG_SETTER, SeenStores.class,
                        StreamsConfig.STATESTORE_CACHE_MAX_BYTES, cacheBytes))) {
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == WeirStreams.State.RUNNING);
            input.produce(3_000, 0, 30_000, CountInput.randomKeys(2_000, 3));
            input.flush(60_000);
            String application = "io.weir.streams:type=application,application=jmx-mem,client=" + client(app);
            Set<ObjectName> threads =
                    beans("io.weir.streams:type=thread,application=jmx-mem,client=" + client(app) + ",*");
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertEquals(3_003, sum(threads, "process-total")));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                double used = value(application, "rocksdb-memory-used-bytes");
                assertTrue(used > 0 && used <= bound, "RocksDB memory " + used + " of " + bound);
                assertTrue(value(application, "rocksdb-memory-pinned-bytes") <= used);
            });
            assertTrue(sum(threads, "rocksdb-bound-flushes-total") > 0, "the thread flushed quiet stores");
            // Between two commits the writes may pass the budget (the thread then commits early); after one,
            // what the caches keep is within it.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                double cached = sum(threads, "cache-used-bytes");
                assertTrue(cached > 0 && cached <= cacheBytes, "cache " + cached + " of " + cacheBytes);
            });
            assertEquals(3, SeenStores.stores.stream().filter("counts"::equals).count(), SeenStores.stores.toString());
            assertEquals(3, value(application, "rocksdb-open-stores"), "one store per task, each outside the bound");
        }
    }

    /** Records the stores it is called for, and that each came with the shared cache. */
    public static final class SeenStores implements RocksDbConfigSetter {
        static final List<String> stores = new CopyOnWriteArrayList<>();

        @Override
        public void setConfig(RocksDbStoreOptions options) {
            if (options.sharedCache().isPresent()) {
                stores.add(options.storeName());
            }
        }
    }

    @Test
    void taskBeansFollowTheTasksAnInstanceHolds(KafkaBroker broker, @TempDir Path dir) throws Exception {
        broker.createTopic("jmx-move-in", 2);
        broker.createTopic("jmx-move-out", 2);
        CountInput input = new CountInput(broker, "jmx-move-in", 2);
        input.produce(2_000, 0, 30_000, CountInput.randomKeys(200, 2));
        Map<String, Object> standby = Map.of(StreamsConfig.NUM_STANDBY_REPLICAS, 1);
        try (WeirStreams first = WindowedCountApp.instance(
                broker,
                "jmx-move",
                "jmx-move-in",
                "jmx-move-out",
                dir.resolve("a"),
                StreamsConfig.EXACTLY_ONCE,
                standby)) {
            first.start();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> first.state() == WeirStreams.State.RUNNING
                            && tasks(first).size() == 2);
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertEquals(
                            2_000,
                            sum(
                                    beans(
                                            "io.weir.streams:type=node,application=jmx-move,node=\"source:jmx-move-in\",*"),
                                    "records-consumed-total")));
            assertEquals(Set.of("0_0", "0_1"), taskBeans(first));
            try (WeirStreams second = WindowedCountApp.instance(
                    broker,
                    "jmx-move",
                    "jmx-move-in",
                    "jmx-move-out",
                    dir.resolve("b"),
                    StreamsConfig.EXACTLY_ONCE,
                    standby)) {
                second.start();
                await().atMost(Duration.ofSeconds(90))
                        .until(() -> tasks(first).size() == 1
                                && tasks(second).size() == 1
                                && !first.localThreads().get(0).standbyTasks().isEmpty()
                                && !second.localThreads().get(0).standbyTasks().isEmpty());
                // Each holds one task and a copy of the other's: both have a task bean for each.
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    assertEquals(Set.of("0_0", "0_1"), taskBeans(first));
                    assertEquals(Set.of("0_0", "0_1"), taskBeans(second));
                });
                String copy =
                        second.localThreads().get(0).standbyTasks().iterator().next();
                String active = tasks(second).iterator().next();
                String secondClient = client(second);
                // The copy reports its lag under its task; with no new input it catches up.
                await().atMost(Duration.ofSeconds(30))
                        .untilAsserted(() -> assertEquals(
                                0, value(bean("task", secondClient, "task=" + copy), "standby-lag-records")));
                assertTrue(beans(bean("node", secondClient, "task=" + copy)).isEmpty(), "a copy runs no operators");
                // The first instance's operators and stores of the task it gave away are gone.
                assertTrue(beans(bean("node", client(first), "task=" + active)).isEmpty());
                assertTrue(beans(bean("store", client(first), "task=" + active)).isEmpty());
            }
        }
        assertTrue(beans("io.weir.streams:application=jmx-move,*").isEmpty(), "no bean outlives its instance");
    }

    /** The pattern of application jmx-move's beans of {@code level} on instance {@code client} with {@code tags}. */
    private static String bean(String level, String client, String tags) {
        return "io.weir.streams:type=" + level + ",application=jmx-move,client=" + client + "," + tags + ",*";
    }

    private static Set<String> tasks(WeirStreams app) {
        Set<String> tasks = new HashSet<>();
        for (ThreadMetadata t : app.localThreads()) {
            tasks.addAll(t.activeTasks());
        }
        return tasks;
    }

    private static Set<String> taskBeans(WeirStreams app) throws Exception {
        Set<String> tasks = new TreeSet<>();
        for (ObjectName bean : beans("io.weir.streams:type=task,application=jmx-move,client=" + client(app) + ",*")) {
            tasks.add(bean.getKeyProperty("task"));
        }
        return tasks;
    }
}
