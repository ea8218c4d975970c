package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.Topology;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.SessionWindows;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.KeyValueStore;
import io.weir.streams.state.QueryableStoreType;
import io.weir.streams.state.ReadOnlyKeyValueStore;
import io.weir.streams.state.ReadOnlySessionStore;
import io.weir.streams.state.ReadOnlyWindowStore;
import io.weir.streams.state.StoreUnavailableException;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Interactive queries on a real broker under exactly-once, one test per rule: a table's store reads as
 * one store over the instance's tasks (get, all, range, prefix, in key order); reads see committed state
 * only, never a write still waiting for its commit; a windowed count reads by key and window start
 * (bounds inclusive, in start order); a session count reads each key's sessions with their windows; an
 * unknown store is refused; before the start and after the stop, queries fail with a typed error saying
 * whether to retry.
 */
@ExtendWith(KafkaBrokerExtension.class)
class InteractiveQueryIntegrationTest {

    private static final int PARTITIONS = 3;
    private static final long WINDOW = 10_000;

    /** Counts per key into the table store "counts". */
    static Topology counts(String input) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.as("counts"));
        return builder.build();
    }

    @Test
    void aScanWhoseActionHangsHoldsUpNeitherTheTaskNorTheClose(KafkaBroker broker, @TempDir Path dir)
            throws InterruptedException {
        broker.createTopic("iq-hang-in", 1);
        try (KafkaProducer<String, String> producer = producer(broker)) {
            producer.send(new ProducerRecord<>("iq-hang-in", "a", "x"));
        }
        WeirStreams app = new WeirStreams(counts("iq-hang-in"), config(broker, "iq-hang", dir));
        CountDownLatch scanning = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try {
            app.start();
            ReadOnlyKeyValueStore<String, Long> store = app.store("counts", QueryableStoreType.keyValueStore());
            await().atMost(Duration.ofSeconds(60))
                    .ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                    .until(() -> store.get("a") != null);
            Thread scan = new Thread(() -> store.forEach((k, v) -> {
                scanning.countDown();
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            scan.start();
            assertTrue(scanning.await(30, TimeUnit.SECONDS));
            long start = System.nanoTime();
            assertTrue(app.close(Duration.ofSeconds(10)), "closed within its timeout");
            assertTrue(System.nanoTime() - start < Duration.ofSeconds(10).toNanos());
            assertTrue(scan.isAlive(), "while the scan's action still hangs");
            release.countDown();
            scan.join(10_000);
        } finally {
            release.countDown();
            app.close();
        }
    }

    @Test
    void aTablesStoreReadsAsOneStoreOverEveryTaskOfTheInstanceInKeyOrder(KafkaBroker broker, @TempDir Path dir) {
        broker.createTopic("iq-counts-in", PARTITIONS);
        Map<String, Long> expected = new TreeMap<>();
        try (KafkaProducer<String, String> producer = producer(broker)) {
            for (int i = 0; i < 60; i++) {
                String key = (i % 2 == 0 ? "user-" : "item-") + (i % 12);
                producer.send(new ProducerRecord<>("iq-counts-in", key, "x"));
                expected.merge(key, 1L, Long::sum);
            }
        }
        try (WeirStreams app = new WeirStreams(counts("iq-counts-in"), config(broker, "iq-counts", dir))) {
            app.start();
            ReadOnlyKeyValueStore<String, Long> store = app.store("counts", QueryableStoreType.keyValueStore());
            await().atMost(Duration.ofSeconds(60))
                    .ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                    .untilAsserted(() -> assertEquals(expected, all(store)));
            assertEquals(
                    new ArrayList<>(expected.keySet()),
                    new ArrayList<>(all(store).keySet()),
                    "in key order");
            assertEquals(expected.get("user-4"), store.get("user-4"));
            assertNull(store.get("nobody"));
            Map<String, Long> items = new LinkedHashMap<>();
            store.prefixScan("item-", Serdes.String().serializer(), items::put);
            assertEquals(
                    new TreeMap<>(Map.of(
                            "item-1", 5L, "item-11", 5L, "item-3", 5L, "item-5", 5L, "item-7", 5L, "item-9", 5L)),
                    new TreeMap<>(items));
            Map<String, Long> range = new LinkedHashMap<>();
            store.range("user-0", "user-2", range::put);
            assertEquals(List.of("user-0", "user-10"), new ArrayList<>(range.keySet()), "from inclusive, to exclusive");
        }
    }

    /** Puts each value under its key; on the value "hold", waits for {@link #release} before returning. */
    static final class HoldingWriter implements KeyedProcessor<String, String, String, String> {
        static final CountDownLatch holding = new CountDownLatch(1);
        static final CountDownLatch release = new CountDownLatch(1);

        @Override
        public void process(String key, String value, KeyedProcessorContext<String, String, String> ctx) {
            KeyValueStore<String, String> latest = ctx.store("latest");
            latest.put(key, value);
            if (value.equals("hold")) {
                holding.countDown();
                try {
                    assertTrue(release.await(60, TimeUnit.SECONDS), "released");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    @Test
    void readsSeeCommittedStateOnlyNeverAWriteWaitingForItsCommit(KafkaBroker broker, @TempDir Path dir)
            throws Exception {
        broker.createTopic("iq-held-in", 1);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("iq-held-in", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .process(
                        HoldingWriter::new,
                        Materialized.<String, String>as("latest")
                                .withKeySerde(Serdes.String())
                                .withValueSerde(Serdes.String()));
        try (WeirStreams app = new WeirStreams(builder.build(), config(broker, "iq-held", dir));
                KafkaProducer<String, String> producer = producer(broker)) {
            app.start();
            ReadOnlyKeyValueStore<String, String> store = app.store("latest", QueryableStoreType.keyValueStore());
            producer.send(new ProducerRecord<>("iq-held-in", "k", "committed"));
            producer.flush();
            await().atMost(Duration.ofSeconds(60))
                    .ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                    .until(() -> "committed".equals(store.get("k")));
            producer.send(new ProducerRecord<>("iq-held-in", "k", "hold"));
            producer.flush();
            assertTrue(HoldingWriter.holding.await(60, TimeUnit.SECONDS), "the task holds the record");
            // The task has written "hold" into its store, and its transaction is open: not yet visible.
            assertEquals("committed", store.get("k"));
            Map<String, String> all = new TreeMap<>();
            store.forEach(all::put);
            assertEquals(Map.of("k", "committed"), all);
            HoldingWriter.release.countDown();
            await().atMost(Duration.ofSeconds(30)).until(() -> "hold".equals(store.get("k")));
        }
    }

    @Test
    void anUnknownOrInternalStoreIsRefusedNamingTheQueryableOnes(KafkaBroker broker, @TempDir Path dir) {
        try (WeirStreams app = new WeirStreams(counts("iq-unknown-in"), config(broker, "iq-unknown", dir))) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class, () -> app.store("count", QueryableStoreType.keyValueStore()));
            assertTrue(e.getMessage().contains("[counts (key-value store)]"), e.getMessage());
        }
    }

    @Test
    void aWindowedCountUnderExactlyOnceReadsByKeyAndWindowStart(KafkaBroker broker, @TempDir Path dir) {
        broker.createTopic("iq-windows-in", PARTITIONS);
        long t0 = windowStart(System.currentTimeMillis() - 60_000);
        Map<String, Map<Long, Long>> expected = new TreeMap<>();
        try (KafkaProducer<String, String> producer = producer(broker)) {
            for (int i = 0; i < 90; i++) {
                String key = "user-" + (i % 6);
                long time = t0 + (i * 337L) % 30_000;
                producer.send(new ProducerRecord<>("iq-windows-in", null, time, key, "click"));
                expected.computeIfAbsent(key, k -> new TreeMap<>()).merge(windowStart(time), 1L, Long::sum);
            }
        }
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "iq-windows-in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofMillis(WINDOW)).withAllowedLateness(Duration.ofHours(1)))
                .count(Materialized.as("clicks"));
        Map<String, Object> config = config(broker, "iq-windows", dir);
        config.put(StreamsConfig.PROCESSING_GUARANTEE, StreamsConfig.EXACTLY_ONCE);
        try (WeirStreams app = new WeirStreams(builder.build(), config)) {
            app.start();
            ReadOnlyWindowStore<String, Long> store = app.store("clicks", QueryableStoreType.windowStore());
            await().atMost(Duration.ofSeconds(60))
                    .ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                    .untilAsserted(() -> assertEquals(expected, windows(store)));
            List<String> user1 = new ArrayList<>();
            store.fetch("user-1", t0 + WINDOW, t0 + 2 * WINDOW, (w, count) -> user1.add(w.window() + "=" + count));
            assertEquals(
                    List.of(
                            "[" + (t0 + WINDOW) + ", " + (t0 + 2 * WINDOW) + ")="
                                    + expected.get("user-1").get(t0 + WINDOW),
                            "[" + (t0 + 2 * WINDOW) + ", " + (t0 + 3 * WINDOW) + ")="
                                    + expected.get("user-1").get(t0 + 2 * WINDOW)),
                    user1,
                    "the windows of user-1 starting in [t0 + 10 s, t0 + 20 s], both inclusive, in start order");
            assertEquals(expected.get("user-2").get(t0), store.fetch("user-2", t0));
            assertNull(store.fetch("user-2", t0 + WINDOW / 2), "no window starts there");
            assertNull(store.fetch("nobody", t0));
        }
    }

    @Test
    void aSessionCountReadsEachKeysSessionsByKey(KafkaBroker broker, @TempDir Path dir) {
        broker.createTopic("iq-sessions-in", PARTITIONS);
        long t0 = windowStart(System.currentTimeMillis() - 60_000);
        try (KafkaProducer<String, String> producer = producer(broker)) {
            for (long offset : new long[] {0, 2_000, 30_000}) {
                producer.send(new ProducerRecord<>("iq-sessions-in", null, t0 + offset, "user-a", "visit"));
            }
            producer.send(new ProducerRecord<>("iq-sessions-in", null, t0 + 1_000, "user-b", "visit"));
        }
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "iq-sessions-in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey()
                .windowedBy(SessionWindows.withGap(Duration.ofSeconds(5)).withAllowedLateness(Duration.ofHours(1)))
                .count(Materialized.as("visits"));
        try (WeirStreams app = new WeirStreams(builder.build(), config(broker, "iq-sessions", dir))) {
            app.start();
            ReadOnlySessionStore<String, Long> store = app.store("visits", QueryableStoreType.sessionStore());
            List<String> userA =
                    List.of("[" + t0 + ", " + (t0 + 7_000) + ")=2", "[" + (t0 + 30_000) + ", " + (t0 + 35_000) + ")=1");
            await().atMost(Duration.ofSeconds(60))
                    .ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                    .untilAsserted(() -> assertEquals(userA, sessions(store, "user-a")));
            assertEquals(List.of("[" + (t0 + 1_000) + ", " + (t0 + 6_000) + ")=1"), sessions(store, "user-b"));
            List<String> containing = new ArrayList<>();
            store.findSessions(
                    "user-a", t0 + 30_000 + 1, t0 + 30_000, (w, count) -> containing.add(w.window() + "=" + count));
            assertEquals(List.of(userA.get(1)), containing, "the sessions of user-a that contain t0 + 30 s");
            assertEquals(List.of(), sessions(store, "nobody"));
        }
    }

    private static long windowStart(long time) {
        return time - Math.floorMod(time, WINDOW);
    }

    /** Every window of the store, by key and start. */
    private static Map<String, Map<Long, Long>> windows(ReadOnlyWindowStore<String, Long> store) {
        Map<String, Map<Long, Long>> all = new TreeMap<>();
        store.forEach((w, count) -> all.computeIfAbsent(w.key(), k -> new TreeMap<>())
                .put(w.window().start(), count));
        return all;
    }

    private static List<String> sessions(ReadOnlySessionStore<String, Long> store, String key) {
        List<String> sessions = new ArrayList<>();
        store.fetch(key, (w, count) -> sessions.add(w.window() + "=" + count));
        return sessions;
    }

    @Test
    void beforeTheStartAQueryIsRetriableAndAfterTheStopItIsNot(KafkaBroker broker, @TempDir Path dir) {
        broker.createTopic("iq-life-in", 1);
        WeirStreams app = new WeirStreams(counts("iq-life-in"), config(broker, "iq-life", dir));
        ReadOnlyKeyValueStore<String, Long> store = app.store("counts", QueryableStoreType.keyValueStore());
        StoreUnavailableException before = assertThrows(StoreUnavailableException.class, () -> store.get("k"));
        assertEquals(StoreUnavailableException.Reason.NOT_LOCAL, before.reason());
        assertTrue(before.retriable());
        app.start();
        await().atMost(Duration.ofSeconds(60))
                .ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                .until(() -> store.get("k") == null);
        app.close();
        StoreUnavailableException after =
                assertThrows(StoreUnavailableException.class, () -> store.forEach((k, v) -> {}));
        assertEquals(StoreUnavailableException.Reason.NOT_RUNNING, after.reason());
        assertFalse(after.retriable());
    }

    private static Map<String, Long> all(ReadOnlyKeyValueStore<String, Long> store) {
        Map<String, Long> all = new LinkedHashMap<>();
        store.forEach(all::put);
        return all;
    }

    private static Map<String, Object> config(KafkaBroker broker, String app, Path dir) {
        Map<String, Object> config = WindowedCountApp.config(broker, app, dir);
        config.put(StreamsConfig.COMMIT_INTERVAL_MS, 100L);
        return config;
    }

    private static KafkaProducer<String, String> producer(KafkaBroker broker) {
        return new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer());
    }
}
