package io.weir.streams.runtime;

import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Windowed;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** WeirStreams on a real Kafka broker: consumer groups, exactly-once output, restore from changelogs. */
@ExtendWith(KafkaBrokerExtension.class)
class RuntimeIntegrationTest {

    private static final int PARTITIONS = 3;
    /**
     * Event times in the recent past, ending before now: the broker deletes records by timestamp
     * (retention.ms), so 1970 would vanish mid-test, and rejects timestamps too far in the future.
     */
    private static final long BASE_TIME = BaseTime.recentPast();

    /** Produces {@code count} records over 10 keys, event times spread evenly over {@code [fromMs, fromMs + spanMs)}. */
    private static Map<String, Long> produce(KafkaBroker broker, String topic, int count, long seed, long fromMs, long spanMs) {
        Map<String, Long> expected = new TreeMap<>();
        Random random = new Random(seed);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                String key = "k" + random.nextInt(10);
                long t = BASE_TIME + fromMs + (long) i * spanMs / count;
                producer.send(new ProducerRecord<>(topic, null, t, key, "v"));
                expected.merge(key + "@" + (t - t % WindowedCountApp.WINDOW), 1L, Long::sum);
            }
            producer.flush();
        }
        return expected;
    }

    private static void flush(KafkaBroker broker, String topic, long t) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()), new StringSerializer(), new StringSerializer())) {
            for (int p = 0; p < PARTITIONS; p++) {
                producer.send(new ProducerRecord<>(topic, p, BASE_TIME + t, CommittedPanes.FLUSH_KEY, "v"));
            }
        }
    }

    private static Map<String, Long> finalCounts(Map<String, List<ConsumerRecord<Windowed<String>, Long>>> panes) {
        Map<String, Long> out = new TreeMap<>();
        panes.forEach((k, list) -> out.put(k, list.get(list.size() - 1).value()));
        return out;
    }

    private static void assertOneOnTimePaneEach(Map<String, List<ConsumerRecord<Windowed<String>, Long>>> panes) {
        panes.forEach((k, list) -> {
            assertEquals(1, list.size(), "exactly one pane for " + k + ": " + list);
            assertEquals(PaneInfo.Timing.ON_TIME, PaneInfo.from(list.get(0).headers()).orElseThrow().timing());
        });
    }

    @Test
    void twoInstancesShareTheTasksAndTheCommittedOutputIsExact(KafkaBroker broker, @TempDir Path dirA, @TempDir Path dirB) {
        broker.createTopic("e2e-in", PARTITIONS);
        broker.createTopic("e2e-out", PARTITIONS);
        Map<String, Long> expected = produce(broker, "e2e-in", 3_000, 1, 0, 60_000);
        try (WeirStreams a = WindowedCountApp.instance(broker, "e2e", "e2e-in", "e2e-out", dirA, StreamsConfig.EXACTLY_ONCE);
             WeirStreams b = WindowedCountApp.instance(broker, "e2e", "e2e-in", "e2e-out", dirB, StreamsConfig.EXACTLY_ONCE)) {
            a.start();
            b.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> a.state() == WeirStreams.State.RUNNING
                    && b.state() == WeirStreams.State.RUNNING);
            flush(broker, "e2e-in", 1_000_000);
            await().atMost(Duration.ofSeconds(90)).untilAsserted(() ->
                    assertEquals(expected, finalCounts(CommittedPanes.read(broker, "e2e-out"))));
            assertOneOnTimePaneEach(CommittedPanes.read(broker, "e2e-out"));
            long consumedA = a.metrics().getOrDefault("source:e2e-in/records-consumed", 0L);
            long consumedB = b.metrics().getOrDefault("source:e2e-in/records-consumed", 0L);
            assertEquals(3_000 + PARTITIONS, consumedA + consumedB, "every record processed once");
            assertTrue(consumedA > 0 && consumedB > 0, "both instances worked: " + consumedA + " / " + consumedB);
        }
    }

    @Test
    void stateAndEventTimeSurviveARestartOnANewMachine(KafkaBroker broker, @TempDir Path first, @TempDir Path second) {
        broker.createTopic("restart-in", PARTITIONS);
        broker.createTopic("restart-out", PARTITIONS);
        Map<String, Long> expected = new HashMap<>(produce(broker, "restart-in", 1_000, 2, 0, 55_000));
        try (WeirStreams a = WindowedCountApp.instance(broker, "restart", "restart-in", "restart-out", first,
                StreamsConfig.EXACTLY_ONCE)) {
            a.start();
            await().atMost(Duration.ofSeconds(60)).until(() ->
                    a.metrics().getOrDefault("source:restart-in/records-consumed", 0L) == 1_000);
            a.close(Duration.ofSeconds(30));
        }
        // A record for a window the first instance closed: late, if event time survived the restart.
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()), new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>("restart-in", 0, BASE_TIME + 1_000L, "k0", "late"));
        }
        // The rest of the minute: the window [50 s, 60 s) gets records before and after the restart.
        produce(broker, "restart-in", 1_000, 3, 55_000, 55_000).forEach((k, v) -> expected.merge(k, v, Long::sum));
        try (WeirStreams b = WindowedCountApp.instance(broker, "restart", "restart-in", "restart-out", second,
                StreamsConfig.EXACTLY_ONCE)) {
            b.start();
            flush(broker, "restart-in", 1_000_000);
            await().atMost(Duration.ofSeconds(90)).untilAsserted(() ->
                    assertEquals(expected, finalCounts(CommittedPanes.read(broker, "restart-out"))));
            assertOneOnTimePaneEach(CommittedPanes.read(broker, "restart-out"));
            assertEquals(1L, b.metrics().get("counts/late-records-dropped"), "judged late with the restored event time");
        }
    }

    @Test
    void aMissingSourceTopicEndsInErrorNamingIt(KafkaBroker broker, @TempDir Path dir) {
        try (WeirStreams app = WindowedCountApp.instance(broker, "missing", "no-such-topic", "missing-out", dir,
                StreamsConfig.EXACTLY_ONCE)) {
            app.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> app.state() == WeirStreams.State.ERROR);
            assertTrue(app.error().getMessage().contains("'no-such-topic' does not exist"), app.error().getMessage());
        }
    }

    @Test
    void anUnreachableBrokerAtStartIsRetriedUntilCloseWithoutFailing(@TempDir Path dir) {
        String nobody = "127.0.0.1:" + io.weir.streams.internals.testkit.FreePorts.pick();
        WeirStreams app = new WeirStreams(WindowedCountApp.topology("in", "out"), Map.of(
                StreamsConfig.APPLICATION_ID, "unreachable", StreamsConfig.BOOTSTRAP_SERVERS, nobody,
                StreamsConfig.STATE_DIR, dir.toString(), "admin.default.api.timeout.ms", 2_000,
                "admin.request.timeout.ms", 1_000));
        app.start();
        await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(10))
                .until(() -> app.state() == WeirStreams.State.REBALANCING && app.error() == null);
        assertTrue(app.close(Duration.ofSeconds(20)), "close stops the retrying start");
        assertEquals(WeirStreams.State.NOT_RUNNING, app.state());
        assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().equals("weir-unreachable-start")),
                "no thread left behind");
    }
}
