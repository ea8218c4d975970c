package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Trigger;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import io.weir.streams.time.WatermarkStrategy;
import io.weir.streams.time.Windowed;
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
 * Interval triggers in the runtime: EARLY panes follow the wall clock and reach read_committed
 * readers while the watermark stands still; a window that changed before its task moved fires after
 * the restore on the new instance, even under another trigger.
 */
@ExtendWith(KafkaBrokerExtension.class)
class EarlyFiringIntegrationTest {

    /** A count per key from topic {@code app}-in to {@code app}-out over {@code windows}, fired by {@code trigger}. */
    private static Topology topology(String app, TumblingWindows windows, Trigger trigger) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        app + "-in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey()
                .windowedBy(windows)
                .withTrigger(trigger)
                .count(Materialized.as("counts"))
                .toStream()
                .to(app + "-out");
        return builder.build();
    }

    /** One-hour windows, which never close in the test, firing early every {@code interval}. */
    private static Topology early(Duration interval) {
        return topology(
                "early",
                TumblingWindows.of(Duration.ofHours(1)),
                Trigger.onTime().withEarlyFirings(interval));
    }

    @Test
    void aWindowThatChangedBeforeItsTaskMovedFiresEarlyAfterTheRestore(
            KafkaBroker broker, @TempDir Path first, @TempDir Path second) {
        broker.createTopic("early-in", 1);
        broker.createTopic("early-out", 1);
        CountInput input = new CountInput(broker, "early-in", 1);
        input.produce(5, 0, 50, i -> "k");
        // The first instance's ticks are an hour apart: it commits the changed window without a pane.
        try (WeirStreams a =
                new WeirStreams(early(Duration.ofHours(1)), WindowedCountApp.config(broker, "early", first))) {
            a.start();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> a.metrics().getOrDefault("source:early-in/records-consumed", 0L) == 5);
            a.close(Duration.ofSeconds(30));
            assertEquals(0L, a.metrics().get("counts/panes-emitted"));
        }
        assertEquals(Map.of(), CommittedPanes.read(broker, "early-out"));
        try (WeirStreams b =
                new WeirStreams(early(Duration.ofMillis(200)), WindowedCountApp.config(broker, "early", second))) {
            b.start();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                Map<String, List<ConsumerRecord<Windowed<String>, Long>>> panes =
                        CommittedPanes.read(broker, "early-out");
                assertEquals(1, panes.size());
                ConsumerRecord<Windowed<String>, Long> pane =
                        panes.values().iterator().next().get(0);
                assertEquals(5L, pane.value(), "the restored count");
                assertEquals(
                        new PaneInfo(PaneInfo.Timing.EARLY, 0, false),
                        PaneInfo.from(pane.headers()).orElseThrow());
            });
        }
    }

    @Test
    void aLateChangeLeftByAnotherTriggerIsEmittedWhenItsWindowCloses(
            KafkaBroker broker, @TempDir Path first, @TempDir Path second) {
        broker.createTopic("retrigger-in", 1);
        broker.createTopic("retrigger-out", 1);
        TumblingWindows windows = TumblingWindows.of(Duration.ofMillis(WindowedCountApp.WINDOW))
                .withAllowedLateness(Duration.ofMinutes(1));
        CountInput input = new CountInput(broker, "retrigger-in", 1);
        input.send(0, 1_000, "k");
        input.flush(WindowedCountApp.WINDOW);
        input.send(0, 2_000, "k");
        // Late firings an hour apart: the first instance commits the late change without a pane.
        try (WeirStreams a = new WeirStreams(
                topology("retrigger", windows, Trigger.onTime().withLateFirings(Duration.ofHours(1))),
                WindowedCountApp.config(broker, "retrigger", first))) {
            a.start();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> a.metrics().getOrDefault("source:retrigger-in/records-consumed", 0L) == 3);
            a.close(Duration.ofSeconds(30));
        }
        input.flush(WindowedCountApp.WINDOW + 61_000);
        try (WeirStreams b = new WeirStreams(
                topology("retrigger", windows, Trigger.onTime()),
                WindowedCountApp.config(broker, "retrigger", second))) {
            b.start();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                List<ConsumerRecord<Windowed<String>, Long>> panes = CommittedPanes.read(broker, "retrigger-out")
                        .values()
                        .iterator()
                        .next();
                assertEquals(
                        List.of(1L, 2L),
                        panes.stream().map(ConsumerRecord::value).toList());
                assertEquals(
                        new PaneInfo(PaneInfo.Timing.LATE, 1, true),
                        PaneInfo.from(panes.get(1).headers()).orElseThrow(),
                        "the pending late change, at the window's close");
            });
        }
    }
}
