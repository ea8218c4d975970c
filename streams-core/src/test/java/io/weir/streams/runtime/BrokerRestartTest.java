package io.weir.streams.runtime;

import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirStreams;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.weir.streams.runtime.CommittedPanes.assertOneOnTimePaneEach;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The broker goes away mid-stream and comes back on the same data: both instances of the application
 * (with standby copies of each other's tasks) ride it out by themselves, exactly once.
 */
class BrokerRestartTest {

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = KafkaBrokerExtension.perClass();

    private static final int PARTITIONS = 3;

    @Test
    void aBrokerRestartMidStreamLosesNothingAndDuplicatesNothingAndEveryInstanceResumes(
            @TempDir Path first, @TempDir Path second) {
        KafkaBroker broker = KAFKA.broker();
        broker.createTopic("bounce-in", PARTITIONS);
        broker.createTopic("bounce-out", PARTITIONS);
        CountInput input = new CountInput(broker, "bounce-in", PARTITIONS);
        Map<String, Long> expected = new HashMap<>(input.produce(20_000, 0, 100_000, CountInput.randomKeys(20, 5)));
        List<WeirStreams.State> states = new ArrayList<>();
        // Two instances, each keeping a standby copy of the other's tasks.
        Map<String, Object> standby = Map.of(StreamsConfig.NUM_STANDBY_REPLICAS, 1);
        try (WeirStreams a = WindowedCountApp.instance(
                        broker, "bounce", "bounce-in", "bounce-out", first, StreamsConfig.EXACTLY_ONCE, standby);
                WeirStreams b = WindowedCountApp.instance(
                        broker, "bounce", "bounce-in", "bounce-out", second, StreamsConfig.EXACTLY_ONCE, standby)) {
            for (WeirStreams app : List.of(a, b)) {
                app.setStateListener((now, before) -> {
                    synchronized (states) {
                        states.add(now);
                    }
                });
                app.start();
            }
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> a.state() == WeirStreams.State.RUNNING
                            && b.state() == WeirStreams.State.RUNNING
                            && tasks(a) > 0
                            && tasks(b) > 0
                            && tasks(a) + tasks(b) == PARTITIONS);
            broker.restart();
            input.produce(20_000, 100_000, 100_000, CountInput.randomKeys(20, 6))
                    .forEach((k, v) -> expected.merge(k, v, Long::sum));
            input.flush(1_000_000);
            await().atMost(Duration.ofMinutes(3))
                    .untilAsserted(() -> CommittedPanes.assertFinalCounts(expected, broker, "bounce-out"));
            assertOneOnTimePaneEach(CommittedPanes.read(broker, "bounce-out"));
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> a.state() == WeirStreams.State.RUNNING && b.state() == WeirStreams.State.RUNNING);
            synchronized (states) {
                assertEquals(-1, states.indexOf(WeirStreams.State.ERROR), "never failed: " + states);
            }
        }
    }

    private static int tasks(WeirStreams app) {
        return app.localThreads().stream().mapToInt(t -> t.activeTasks().size()).sum();
    }
}
