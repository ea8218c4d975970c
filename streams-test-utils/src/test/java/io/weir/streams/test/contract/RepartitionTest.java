package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.WatermarkStrategy;
import io.weir.streams.time.Window;
import io.weir.streams.time.Windowed;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Grouping on a new key repartitions through an internal topic, and event time travels with it: a
 * downstream task's watermark for a repartition partition is the minimum of its upstream tasks' last
 * watermarks, idle upstream tasks left out.
 */
class RepartitionTest {

    /** "payments" (card -> merchant) on 2 partitions, re-keyed by merchant, counted per 10 s window. */
    private static TestDriver merchants(WatermarkStrategy strategy) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "payments",
                        Consumed.with(Serdes.String(), Serdes.String()).withWatermarks(strategy))
                .selectKey((card, merchant) -> merchant)
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()).withName("by-merchant"))
                .windowedBy(TumblingWindows.of(Duration.ofSeconds(10)))
                .count(Materialized.as("per-merchant"))
                .toStream()
                .to("merchant-counts");
        return new TestDriver(
                builder.build(),
                // Idleness counts from the epoch: the tests give arrival times from there.
                TestDriverConfig.defaults()
                        .withPartitions("payments", 2)
                        .withApplicationId("shop")
                        .withStartTime(Instant.EPOCH));
    }

    private static void pay(TestInputTopic<String, String> in, String card, String merchant, long time, int partition) {
        in.pipe(TestRecord.of(card, merchant).at(time).partition(partition).arrivingAt(time));
    }

    @Test
    void aNewKeyIsCountedAcrossInputPartitionsAndFiresWhenEveryUpstreamTaskPassedTheWindow() {
        try (TestDriver driver = merchants(WatermarkStrategy.forMonotonousTimestamps())) {
            TestInputTopic<String, String> in = driver.input("payments", Serdes.String(), Serdes.String());
            TestOutputTopic<Windowed<String>, Long> out =
                    driver.output("merchant-counts", WindowedSerdes.string(), Serdes.Long());
            pay(in, "card-1", "acme", 1_000, 0);
            pay(in, "card-2", "acme", 2_000, 1);
            pay(in, "card-1", "acme", 12_000, 0);
            assertTrue(out.isEmpty(), "upstream task 1 is still at 1 999: [0, 10 s) stays open downstream");
            pay(in, "card-2", "bolt", 15_000, 1);
            List<OutputRecord<Windowed<String>, Long>> fired = out.readAll();
            assertEquals(1, fired.size());
            assertEquals(
                    new Windowed<>("acme", new Window(0, 10_000)), fired.get(0).key());
            assertEquals(2L, fired.get(0).value(), "both partitions' acme payments in one window");
            assertEquals(
                    PaneInfo.Timing.ON_TIME, fired.get(0).pane().orElseThrow().timing());
            driver.endOfInput();
            assertEquals(List.of(1L, 1L), out.readValues(), "acme and bolt in [10 s, 20 s), fired at the end of input");
        }
    }

    @Test
    void anIdleUpstreamTaskDoesNotHoldTheDownstreamWatermarkBack() {
        try (TestDriver driver =
                merchants(WatermarkStrategy.forMonotonousTimestamps().withIdleness(Duration.ofSeconds(30)))) {
            TestInputTopic<String, String> in = driver.input("payments", Serdes.String(), Serdes.String());
            TestOutputTopic<Windowed<String>, Long> out =
                    driver.output("merchant-counts", WindowedSerdes.string(), Serdes.Long());
            pay(in, "card-1", "acme", 1_000, 0);
            pay(in, "card-1", "acme", 12_000, 0);
            in.pipe(TestRecord.of("card-1", "acme").at(13_000).partition(0).arrivingAt(29_000));
            assertTrue(out.isEmpty(), "partition 1 never produced, but is not idle yet");
            driver.advanceTime(Duration.ofSeconds(1));
            assertTrue(driver.isIdle("payments", 1));
            assertTrue(!driver.isIdle("payments", 0));
            assertEquals(1, out.readAll().size(), "upstream task 1 went idle: the downstream watermark follows task 0");
        }
    }

    @Test
    void theRepartitionTopicIsAnInternalTopicOfTheApplication() {
        StreamsBuilder builder = new StreamsBuilder();
        EventStream<String, String> rekeyed = builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues(String::length)
                .selectKey((k, v) -> k)
                .mapValues(Object::toString);
        IllegalStateException e = assertThrows(IllegalStateException.class, rekeyed::groupByKey);
        assertTrue(
                e.getMessage().contains("key serde is unknown")
                        && e.getMessage().contains("Grouped.with"),
                e.getMessage());
        try (TestDriver driver = merchants(WatermarkStrategy.forMonotonousTimestamps())) {
            IllegalArgumentException internal = assertThrows(
                    IllegalArgumentException.class,
                    () -> driver.input("shop-by-merchant-repartition", Serdes.String(), Serdes.String()));
            assertTrue(internal.getMessage().contains("[payments]"), internal.getMessage());
        }
    }
}
