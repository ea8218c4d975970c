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

/** The broker goes away mid-stream and comes back on the same data: the instance rides it out, exactly once. */
class BrokerRestartTest {

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = KafkaBrokerExtension.perClass();

    private static final int PARTITIONS = 3;

    @Test
    void aBrokerRestartMidStreamLosesNothingAndDuplicatesNothing(@TempDir Path dir) {
        KafkaBroker broker = KAFKA.broker();
        broker.createTopic("bounce-in", PARTITIONS);
        broker.createTopic("bounce-out", PARTITIONS);
        CountInput input = new CountInput(broker, "bounce-in", PARTITIONS);
        Map<String, Long> expected = new HashMap<>(input.produce(20_000, 0, 100_000, CountInput.randomKeys(20, 5)));
        List<WeirStreams.State> states = new ArrayList<>();
        try (WeirStreams app = WindowedCountApp.instance(
                broker, "bounce", "bounce-in", "bounce-out", dir, StreamsConfig.EXACTLY_ONCE)) {
            app.setStateListener((now, before) -> {
                synchronized (states) {
                    states.add(now);
                }
            });
            app.start();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> app.metrics().getOrDefault("source:bounce-in/records-consumed", 0L) > 0);
            broker.restart();
            input.produce(20_000, 100_000, 100_000, CountInput.randomKeys(20, 6))
                    .forEach((k, v) -> expected.merge(k, v, Long::sum));
            input.flush(1_000_000);
            await().atMost(Duration.ofMinutes(3))
                    .untilAsserted(() -> CommittedPanes.assertFinalCounts(expected, broker, "bounce-out"));
            assertOneOnTimePaneEach(CommittedPanes.read(broker, "bounce-out"));
            synchronized (states) {
                assertEquals(-1, states.indexOf(WeirStreams.State.ERROR), "never failed: " + states);
            }
        }
    }
}
