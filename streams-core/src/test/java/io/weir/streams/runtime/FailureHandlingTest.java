package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.Topology;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.errors.StreamsUncaughtExceptionHandler;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static io.weir.streams.runtime.CommittedPanes.assertOneOnTimePaneEach;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What an instance does when a thread fails, when it turns zombie, and when its topics cannot form tasks. */
@ExtendWith(KafkaBrokerExtension.class)
class FailureHandlingTest {

    /** A windowed count of {@code in} that calls {@code onValue} for each record first. */
    private static Topology countWith(String in, String out, Consumer<String> onValue) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        in,
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .peek((k, v) -> onValue.accept(v))
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofMillis(WindowedCountApp.WINDOW)))
                .count(Materialized.as("counts"))
                .toStream()
                .to(out);
        return builder.build();
    }

    @Test
    void aFailedThreadIsReplacedAndItsTasksGoOnExactlyOnce(KafkaBroker broker, @TempDir Path dir) {
        broker.createTopic("replace-in", 3);
        broker.createTopic("replace-out", 3);
        CountInput input = new CountInput(broker, "replace-in", 3);
        Map<String, Long> expected = input.produce(3_000, 0, 60_000, CountInput.randomKeys(10, 9));
        AtomicInteger seen = new AtomicInteger();
        AtomicBoolean failed = new AtomicBoolean();
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        Topology topology = countWith("replace-in", "replace-out", v -> {
            if (seen.incrementAndGet() == 1_500 && failed.compareAndSet(false, true)) {
                throw new IllegalStateException("a bug in user code, once");
            }
        });
        try (WeirStreams app = new WeirStreams(topology, WindowedCountApp.config(broker, "replace", dir))) {
            app.setUncaughtExceptionHandler(e -> {
                handled.add(e);
                return StreamsUncaughtExceptionHandler.Response.REPLACE_THREAD;
            });
            app.start();
            input.flush(1_000_000);
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> CommittedPanes.assertFinalCounts(expected, broker, "replace-out"));
            assertOneOnTimePaneEach(CommittedPanes.read(broker, "replace-out"));
            assertEquals(1, handled.size(), "the handler saw the failure once: " + handled);
            assertTrue(
                    handled.get(0).toString().contains("a bug in user code, once"),
                    handled.get(0).toString());
            await().atMost(Duration.ofSeconds(30)).until(() -> app.state() == WeirStreams.State.RUNNING);
            assertTrue(app.localThreads().get(0).name().endsWith("-g1"), "a replacement runs: " + app.localThreads());
        }
    }

    /**
     * A thread stalls in user code past {@code max.poll.interval.ms}: the group gives its task to the
     * other instance, which finishes the stream. When the stalled thread wakes, its transaction's
     * offsets are refused (a stale group generation), so its output is aborted, and it rejoins instead
     * of failing: the committed output stays exact.
     */
    @Test
    void aZombieThreadIsFencedItsOutputAbortedAndItRejoins(KafkaBroker broker, @TempDir Path dirA, @TempDir Path dirB)
            throws Exception {
        broker.createTopic("zombie-in", 1);
        broker.createTopic("zombie-out", 1);
        CountInput input = new CountInput(broker, "zombie-in", 1);
        CountDownLatch wake = new CountDownLatch(1);
        AtomicBoolean stalled = new AtomicBoolean();
        Topology topology = countWith("zombie-in", "zombie-out", v -> {
            if (v.equals("v") && stalled.compareAndSet(false, true)) {
                try {
                    wake.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        Map<String, Long> expected = input.produce(2_000, 0, 60_000, CountInput.randomKeys(10, 10));
        input.flush(1_000_000);
        List<WeirStreams.State> states = new CopyOnWriteArrayList<>();
        Map<String, Object> settings = WindowedCountApp.config(broker, "zombie", dirA);
        settings.put("consumer.max.poll.interval.ms", 4_000);
        Map<String, Object> settingsB = new HashMap<>(settings);
        settingsB.put(StreamsConfig.STATE_DIR, dirB.toString());
        try (WeirStreams a = new WeirStreams(topology, settings);
                WeirStreams b = new WeirStreams(topology, settingsB)) {
            a.setStateListener((now, before) -> states.add(now));
            b.setStateListener((now, before) -> states.add(now));
            a.start();
            b.start();
            try {
                await().atMost(Duration.ofMinutes(2))
                        .untilAsserted(() -> CommittedPanes.assertFinalCounts(expected, broker, "zombie-out"));
                assertTrue(stalled.get(), "one thread stalled");
            } finally {
                wake.countDown();
            }
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> a.state() == WeirStreams.State.RUNNING && b.state() == WeirStreams.State.RUNNING);
            assertOneOnTimePaneEach(CommittedPanes.read(broker, "zombie-out"));
            CommittedPanes.assertFinalCounts(expected, broker, "zombie-out");
            assertFalse(states.contains(WeirStreams.State.ERROR), "no instance failed: " + states);
            try (GroupOffsets offsets = new GroupOffsets(broker)) {
                assertEquals(offsets.end("zombie-in"), offsets.committed("zombie"), "the zombie's offsets did not win");
            }
        }
    }

    /**
     * A's producer is fenced (another producer took its transactional id) while A holds consumed
     * records it has not committed; then B joins. A learns of the fence in the commit it makes as its
     * partitions are revoked, inside the consumer's rebalance callback: it drops the uncommitted work
     * and takes part in the rebalance with a new producer, instead of failing the thread. The records
     * of the aborted transaction are processed again, once.
     */
    @Test
    void aCommitFencedWhilePartitionsAreRevokedDropsTheWorkAndTheThreadGoesOn(
            KafkaBroker broker, @TempDir Path dirA, @TempDir Path dirB) throws Exception {
        broker.createTopic("revoked-in", 2);
        broker.createTopic("revoked-out", 2);
        CountInput input = new CountInput(broker, "revoked-in", 2);
        List<WeirStreams.State> states = new CopyOnWriteArrayList<>();
        Map<String, Object> settings = WindowedCountApp.config(broker, "revoked", dirA);
        // Only the rebalance commits: the records stay uncommitted until then (one open window, no pane).
        settings.put(StreamsConfig.COMMIT_INTERVAL_MS, 600_000);
        Map<String, Object> settingsB = new HashMap<>(settings);
        settingsB.put(StreamsConfig.STATE_DIR, dirB.toString());
        Topology topology = WindowedCountApp.topology("revoked-in", "revoked-out");
        try (WeirStreams a = new WeirStreams(topology, settings);
                WeirStreams b = new WeirStreams(topology, settingsB);
                Admin admin =
                        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            a.setStateListener((now, before) -> states.add(now));
            b.setStateListener((now, before) -> states.add(now));
            a.start();
            Map<String, Long> expected = new HashMap<>(input.produce(1_000, 0, 5_000, CountInput.randomKeys(10, 11)));
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> a.metrics().getOrDefault("source:revoked-in/records-consumed", 0L) == 1_000);
            List<String> ids = admin.listTransactions().all().get().stream()
                    .map(TransactionListing::transactionalId)
                    .filter(id -> id.startsWith("revoked-"))
                    .toList();
            assertEquals(1, ids.size(), "A's one thread has one transactional id: " + ids);
            try (KafkaProducer<byte[], byte[]> fencer = new KafkaProducer<>(
                    Map.of(
                            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                            ProducerConfig.TRANSACTIONAL_ID_CONFIG, ids.get(0)),
                    new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                fencer.initTransactions();
            }
            String threadA = a.localThreads().get(0).name();
            b.start();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> a.state() == WeirStreams.State.RUNNING
                            && b.state() == WeirStreams.State.RUNNING
                            && !b.localThreads().get(0).activeTasks().isEmpty()
                            && !a.localThreads().get(0).activeTasks().isEmpty());
            input.produce(500, 20_000, 5_000, CountInput.randomKeys(10, 12))
                    .forEach((k, v) -> expected.merge(k, v, Long::sum));
            input.flush(1_000_000);
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> CommittedPanes.assertFinalCounts(expected, broker, "revoked-out"));
            assertOneOnTimePaneEach(CommittedPanes.read(broker, "revoked-out"));
            assertFalse(states.contains(WeirStreams.State.ERROR), "no instance failed: " + states);
            assertEquals(threadA, a.localThreads().get(0).name(), "A's thread went on, not replaced");
        }
    }

    @Test
    void coPartitionedTopicsWithDifferentPartitionCountsFailNamingBoth(KafkaBroker broker, @TempDir Path dir) {
        broker.createTopic("copart-a", 2);
        broker.createTopic("copart-b", 3);
        StreamsBuilder builder = new StreamsBuilder();
        EventStream<String, String> a = builder.stream("copart-a", Consumed.with(Serdes.String(), Serdes.String()));
        EventStream<String, String> b = builder.stream("copart-b", Consumed.with(Serdes.String(), Serdes.String()));
        a.merge(b)
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofSeconds(10)))
                .count()
                .toStream()
                .to("copart-out");
        try (WeirStreams app = new WeirStreams(builder.build(), WindowedCountApp.config(broker, "copart", dir))) {
            app.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> app.state() == WeirStreams.State.ERROR);
            String message = app.error().orElseThrow().getMessage();
            assertTrue(message.contains("copart-a=2") && message.contains("copart-b=3"), message);
        }
    }
}
