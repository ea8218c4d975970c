package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Trigger;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.dsl.Windowed;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Early firings in the runtime: EARLY panes follow the wall clock, reach read_committed readers
 * while the watermark stands still, and a window that changed before its task moved fires after the
 * restore on the new instance.
 */
@ExtendWith(KafkaBrokerExtension.class)
class EarlyFiringIntegrationTest {

    /** A count per key over one-hour windows (which never close in the test), firing early every {@code interval}. */
    private static Topology topology(Duration interval) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("early-in", Consumed.with(Serdes.String(), Serdes.String())
                        .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofHours(1)))
                .withTrigger(Trigger.onTime().withEarlyFirings(interval))
                .count(Materialized.as("early-counts"))
                .toStream()
                .to("early-out");
        return builder.build();
    }

    @Test
    void aWindowThatChangedBeforeItsTaskMovedFiresEarlyAfterTheRestore(KafkaBroker broker, @TempDir Path first,
                                                                      @TempDir Path second) {
        broker.createTopic("early-in", 1);
        broker.createTopic("early-out", 1);
        CountInput input = new CountInput(broker, "early-in", 1);
        input.produce(5, 0, 50, i -> "k");
        // The first instance's ticks are an hour apart: it commits the changed window without a pane.
        try (WeirStreams a = new WeirStreams(topology(Duration.ofHours(1)), WindowedCountApp.config(broker, "early", first))) {
            a.start();
            await().atMost(Duration.ofSeconds(60)).until(() ->
                    a.metrics().getOrDefault("source:early-in/records-consumed", 0L) == 5);
            a.close(Duration.ofSeconds(30));
            assertEquals(0L, a.metrics().get("early-counts/panes-emitted"));
        }
        assertEquals(Map.of(), CommittedPanes.read(broker, "early-out"));
        try (WeirStreams b = new WeirStreams(topology(Duration.ofMillis(200)), WindowedCountApp.config(broker, "early", second))) {
            b.start();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                Map<String, List<ConsumerRecord<Windowed<String>, Long>>> panes = CommittedPanes.read(broker, "early-out");
                assertEquals(1, panes.size());
                ConsumerRecord<Windowed<String>, Long> pane = panes.values().iterator().next().get(0);
                assertEquals(5L, pane.value(), "the restored count");
                assertEquals(new PaneInfo(PaneInfo.Timing.EARLY, 0, false), PaneInfo.from(pane.headers()).orElseThrow());
            });
        }
    }
}
