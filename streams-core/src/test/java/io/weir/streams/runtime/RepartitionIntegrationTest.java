package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.Topology;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import io.weir.streams.time.WatermarkStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static io.weir.streams.runtime.CommittedPanes.assertOneOnTimePaneEach;
import static org.awaitility.Awaitility.await;

/**
 * A count after a key change, on a real broker: records and watermarks travel through the
 * repartition topic between two sub-topologies, and the records read are purged from it.
 */
@ExtendWith(KafkaBrokerExtension.class)
class RepartitionIntegrationTest {

    private static final int PARTITIONS = 3;

    /** Re-keys {@code "c123"} to its first letter {@code "c"}, then counts per 10 s window. */
    private static Topology byFirstLetter(String in, String out) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        in,
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .selectKey((k, v) -> CommittedPanes.FLUSH_KEY.equals(k) ? k : k.substring(0, 1))
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()).withName("by-letter"))
                .windowedBy(TumblingWindows.of(Duration.ofMillis(WindowedCountApp.WINDOW)))
                .count(Materialized.as("letters"))
                .toStream()
                .to(out);
        return builder.build();
    }

    @Test
    void aCountAfterAKeyChangeIsExactAndTheRepartitionTopicIsPurged(
            KafkaBroker broker, @TempDir Path dirA, @TempDir Path dirB) {
        broker.createTopic("letters-in", PARTITIONS);
        broker.createTopic("letters-out", PARTITIONS);
        CountInput input = new CountInput(broker, "letters-in", PARTITIONS);
        Random random = new Random(8);
        Map<String, Long> byKey =
                input.produce(5_000, 0, 60_000, i -> (char) ('a' + random.nextInt(5)) + Integer.toString(i));
        Map<String, Long> expected = new TreeMap<>();
        byKey.forEach((keyAtWindow, n) ->
                expected.merge(keyAtWindow.charAt(0) + keyAtWindow.substring(keyAtWindow.indexOf('@')), n, Long::sum));
        Map<String, Object> configA = WindowedCountApp.config(broker, "letters", dirA);
        configA.put(StreamsConfig.REPARTITION_PURGE_INTERVAL_MS, 200);
        Map<String, Object> configB = new HashMap<>(configA);
        configB.put(StreamsConfig.STATE_DIR, dirB.toString());
        try (WeirStreams a = new WeirStreams(byFirstLetter("letters-in", "letters-out"), configA);
                WeirStreams b = new WeirStreams(byFirstLetter("letters-in", "letters-out"), configB);
                GroupOffsets offsets = new GroupOffsets(broker)) {
            a.start();
            b.start();
            input.flush(1_000_000);
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> CommittedPanes.assertFinalCounts(expected, broker, "letters-out"));
            assertOneOnTimePaneEach(CommittedPanes.read(broker, "letters-out"));
            await().atMost(Duration.ofSeconds(30)).until(() -> offsets.start("letters-by-letter-repartition") >= 5_000);
        }
    }
}
