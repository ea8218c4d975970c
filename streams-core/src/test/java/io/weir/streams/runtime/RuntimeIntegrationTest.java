package io.weir.streams.runtime;

import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirStreams;
import io.weir.streams.test.kafka.FreePorts;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static io.weir.streams.runtime.CommittedPanes.assertOneOnTimePaneEach;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** WeirStreams on a real Kafka broker: consumer groups, exactly-once output, restore from changelogs. */
@ExtendWith(KafkaBrokerExtension.class)
class RuntimeIntegrationTest {

    private static final int PARTITIONS = 3;

    @Test
    void twoInstancesShareTheTasksAndTheCommittedOutputIsExact(
            KafkaBroker broker, @TempDir Path dirA, @TempDir Path dirB) {
        broker.createTopic("e2e-in", PARTITIONS);
        broker.createTopic("e2e-out", PARTITIONS);
        CountInput input = new CountInput(broker, "e2e-in", PARTITIONS);
        Map<String, Long> expected = input.produce(3_000, 0, 60_000, CountInput.randomKeys(10, 1));
        try (WeirStreams a = WindowedCountApp.instance(
                        broker, "e2e", "e2e-in", "e2e-out", dirA, StreamsConfig.EXACTLY_ONCE);
                WeirStreams b = WindowedCountApp.instance(
                        broker, "e2e", "e2e-in", "e2e-out", dirB, StreamsConfig.EXACTLY_ONCE)) {
            a.start();
            b.start();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> a.state() == WeirStreams.State.RUNNING && b.state() == WeirStreams.State.RUNNING);
            input.flush(1_000_000);
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> CommittedPanes.assertFinalCounts(expected, broker, "e2e-out"));
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
        CountInput input = new CountInput(broker, "restart-in", PARTITIONS);
        Map<String, Long> expected = new HashMap<>(input.produce(1_000, 0, 55_000, CountInput.randomKeys(10, 2)));
        try (WeirStreams a = WindowedCountApp.instance(
                broker, "restart", "restart-in", "restart-out", first, StreamsConfig.EXACTLY_ONCE)) {
            a.start();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> a.metrics().getOrDefault("source:restart-in/records-consumed", 0L) == 1_000);
            a.close(Duration.ofSeconds(30));
        }
        // A record for a window the first instance closed: late, if event time survived the restart.
        input.send(0, 1_000, "k0");
        // The rest of the minute: the window [50 s, 60 s) gets records before and after the restart.
        input.produce(1_000, 55_000, 55_000, CountInput.randomKeys(10, 3))
                .forEach((k, v) -> expected.merge(k, v, Long::sum));
        try (WeirStreams b = WindowedCountApp.instance(
                broker, "restart", "restart-in", "restart-out", second, StreamsConfig.EXACTLY_ONCE)) {
            b.start();
            input.flush(1_000_000);
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> CommittedPanes.assertFinalCounts(expected, broker, "restart-out"));
            assertOneOnTimePaneEach(CommittedPanes.read(broker, "restart-out"));
            assertEquals(
                    1L, b.metrics().get("counts/late-records-dropped"), "judged late with the restored event time");
        }
    }

    @Test
    void aFiredWindowIsCommittedWithoutWaitingOutTheCommitInterval(KafkaBroker broker, @TempDir Path dir) {
        broker.createTopic("prompt-in", 1);
        broker.createTopic("prompt-out", 1);
        CountInput input = new CountInput(broker, "prompt-in", 1);
        Map<String, Long> expected = input.produce(200, 0, 9_000, CountInput.randomKeys(5, 4));
        // An interval far longer than the wait below: only the commit the firing window asks for can
        // make its panes visible in time.
        try (WeirStreams app = WindowedCountApp.instance(
                broker,
                "prompt",
                "prompt-in",
                "prompt-out",
                dir,
                StreamsConfig.EXACTLY_ONCE,
                Map.of(StreamsConfig.COMMIT_INTERVAL_MS, 600_000))) {
            app.start();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> app.metrics().getOrDefault("source:prompt-in/records-consumed", 0L) == 200);
            input.flush(WindowedCountApp.WINDOW);
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> CommittedPanes.assertFinalCounts(expected, broker, "prompt-out"));
        }
    }

    @Test
    void aMissingSourceTopicEndsInErrorNamingIt(KafkaBroker broker, @TempDir Path dir) {
        try (WeirStreams app = WindowedCountApp.instance(
                broker, "missing", "no-such-topic", "missing-out", dir, StreamsConfig.EXACTLY_ONCE)) {
            app.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> app.state() == WeirStreams.State.ERROR);
            String message = app.error().orElseThrow().getMessage();
            assertTrue(message.contains("'no-such-topic' does not exist"), message);
        }
    }

    @Test
    void anUnreachableBrokerAtStartIsRetriedUntilCloseWithoutFailing(@TempDir Path dir) {
        String nobody = "127.0.0.1:" + FreePorts.pick();
        WeirStreams app = new WeirStreams(
                WindowedCountApp.topology("in", "out"),
                Map.of(
                        StreamsConfig.APPLICATION_ID,
                        "unreachable",
                        StreamsConfig.BOOTSTRAP_SERVERS,
                        nobody,
                        StreamsConfig.STATE_DIR,
                        dir.toString(),
                        "admin.default.api.timeout.ms",
                        2_000,
                        "admin.request.timeout.ms",
                        1_000));
        app.start();
        await().during(Duration.ofSeconds(4))
                .atMost(Duration.ofSeconds(10))
                .until(() -> app.state() == WeirStreams.State.REBALANCING
                        && app.error().isEmpty());
        assertTrue(app.close(Duration.ofSeconds(20)), "close stops the retrying start");
        assertEquals(WeirStreams.State.NOT_RUNNING, app.state());
        assertTrue(
                Thread.getAllStackTraces().keySet().stream()
                        .noneMatch(t -> t.getName().contains("weir-unreachable")),
                "no thread left behind: neither the start thread nor the clients made meanwhile");
    }
}
