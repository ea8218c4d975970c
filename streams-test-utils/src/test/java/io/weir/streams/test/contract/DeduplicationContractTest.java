package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Deduplicated;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.LateRecord;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Repartitioned;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.WatermarkStrategy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code deduplicate}, one test per rule: the first record per key and id passes, a repeat within the
 * interval of a record that passed is dropped and counted, ids are forgotten when the watermark passes
 * their interval, and a record the watermark has reached is late.
 */
class DeduplicationContractTest {

    private static final Duration WITHIN = Duration.ofSeconds(10);

    /** "payments" (card -> event id), deduplicated by event id per card, to "unique". */
    private static TestDriver dedup(Deduplicated<String> deduplicated) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "payments",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(Duration.ofSeconds(5))))
                .deduplicate((card, eventId) -> eventId, WITHIN, deduplicated)
                .to("unique", Produced.with(Serdes.String(), Serdes.String()));
        return new TestDriver(builder.build(), TestDriverConfig.defaults().withApplicationId("dedup"));
    }

    private static TestDriver dedup() {
        return dedup(Deduplicated.with(Serdes.String()).withName("seen"));
    }

    private static void pay(TestInputTopic<String, String> in, String card, String eventId, long time) {
        in.pipe(TestRecord.of(card, eventId).at(time));
    }

    @Test
    void theFirstRecordPassesAndARepeatWithinTheIntervalIsDroppedAndCounted() {
        try (TestDriver driver = dedup()) {
            TestInputTopic<String, String> in = driver.input("payments", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("unique", Serdes.String(), Serdes.String());
            pay(in, "card-1", "e1", 20_000);
            pay(in, "card-1", "e1", 25_000);
            pay(in, "card-1", "e2", 25_000);
            pay(in, "card-1", "e1", 30_000);
            assertEquals(List.of("e1", "e2"), out.readValues());
            assertEquals(2, driver.metrics().total(WeirMetrics.DUPLICATES_DROPPED));
        }
    }

    @Test
    void aRepeatEarlierThanTheFirstWithinTheIntervalIsDroppedToo() {
        try (TestDriver driver = dedup()) {
            TestInputTopic<String, String> in = driver.input("payments", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("unique", Serdes.String(), Serdes.String());
            pay(in, "card-1", "e1", 20_000);
            pay(in, "card-1", "e1", 15_000);
            assertEquals(List.of("e1"), out.readValues(), "5 s earlier than the first is within 10 s of it");
        }
    }

    @Test
    void aRecordFartherThanTheIntervalFromEveryRecordThatPassedPasses() {
        try (TestDriver driver = dedup()) {
            TestInputTopic<String, String> in = driver.input("payments", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("unique", Serdes.String(), Serdes.String());
            pay(in, "card-1", "e1", 20_000);
            pay(in, "card-1", "e1", 30_001);
            pay(in, "card-1", "e1", 38_000);
            assertEquals(
                    List.of("e1", "e1"),
                    out.readValues(),
                    "30 001 is 10 001 ms after the first; 38 000 is within 10 s of the second, which passed");
        }
    }

    @Test
    void theSameIdUnderAnotherKeyIsNotARepeat() {
        try (TestDriver driver = dedup()) {
            TestInputTopic<String, String> in = driver.input("payments", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("unique", Serdes.String(), Serdes.String());
            pay(in, "card-1", "e1", 20_000);
            pay(in, "card-2", "e1", 20_000);
            assertEquals(2, out.readValues().size());
        }
    }

    @Test
    void idsAreForgottenWhenTheWatermarkPassesTheirIntervalAndALaterRecordOfThemIsLate() {
        try (TestDriver driver =
                dedup(Deduplicated.with(Serdes.String()).withName("seen").withLateRecordsTo("late-payments"))) {
            TestInputTopic<String, String> in = driver.input("payments", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("unique", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> late = driver.output("late-payments", Serdes.String(), Serdes.String());
            pay(in, "card-1", "e1", 20_000);
            assertEquals(1, driver.metrics().total(WeirMetrics.DEDUP_IDS));
            pay(in, "card-2", "e9", 34_999);
            assertEquals(29_998, driver.watermark("payments", 0), "34 999 - 5 s delay - 1 ms");
            assertEquals(2, driver.metrics().total(WeirMetrics.DEDUP_IDS), "e1 is kept until the watermark is 30 000");
            pay(in, "card-2", "e8", 35_001);
            assertEquals(2, driver.metrics().total(WeirMetrics.DEDUP_IDS), "e1 forgotten at 30 000; e8 remembered");
            pay(in, "card-1", "e1", 29_000);
            assertEquals(List.of("e1", "e9", "e8"), out.readValues(), "the late repeat is not judged");
            List<OutputRecord<String, String>> refused = late.readAll();
            assertEquals(1, refused.size());
            assertEquals(LateRecord.Reason.LATE.name(), refused.get(0).header(LateRecord.REASON_HEADER));
            assertEquals(1, driver.metrics().total(WeirMetrics.LATE_RECORDS_DROPPED));
        }
    }

    @Test
    void allowedLatenessJudgesRecordsBehindTheWatermarkAndKeepsIdsLonger() {
        try (TestDriver driver = dedup(
                Deduplicated.with(Serdes.String()).withName("seen").withAllowedLateness(Duration.ofSeconds(30)))) {
            TestInputTopic<String, String> in = driver.input("payments", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("unique", Serdes.String(), Serdes.String());
            pay(in, "card-1", "e1", 20_000);
            pay(in, "card-2", "e9", 50_000);
            pay(in, "card-1", "e1", 25_000);
            pay(in, "card-1", "e2", 25_000);
            assertEquals(List.of("e1", "e9", "e2"), out.readValues(), "44 999 - 30 s < 25 000: judged, a repeat");
        }
    }

    @Test
    void aRecordWithoutAnIdPassesCounted() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("payments", Consumed.with(Serdes.String(), Serdes.String()))
                .deduplicate(
                        (card, eventId) -> eventId.isEmpty() ? null : eventId,
                        WITHIN,
                        Deduplicated.with(Serdes.String()))
                .to("unique", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build())) {
            TestInputTopic<String, String> in = driver.input("payments", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("unique", Serdes.String(), Serdes.String());
            pay(in, "card-1", "", 20_000);
            pay(in, "card-1", "", 20_000);
            assertEquals(2, out.readValues().size());
            assertEquals(2, driver.metrics().total(WeirMetrics.NULL_ID_RECORDS_PASSED));
        }
    }

    @Test
    void deduplicatingByKeyDropsRepeatedKeys() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("events", Consumed.with(Serdes.String(), Serdes.String()))
                .deduplicate(WITHIN)
                .to("unique", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build())) {
            TestInputTopic<String, String> in = driver.input("events", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("unique", Serdes.String(), Serdes.String());
            in.pipe(TestRecord.of("event-1", "a").at(1_000));
            in.pipe(TestRecord.of("event-1", "b").at(2_000));
            in.pipe(TestRecord.of("event-2", "c").at(2_000));
            assertEquals(List.of("a", "c"), out.readValues());
        }
    }

    @Test
    void theIdsSurviveARestart() {
        try (TestDriver driver = dedup()) {
            TestInputTopic<String, String> in = driver.input("payments", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("unique", Serdes.String(), Serdes.String());
            pay(in, "card-1", "e1", 20_000);
            driver.restart();
            pay(in, "card-1", "e1", 21_000);
            assertEquals(List.of("e1"), out.readValues());
        }
    }

    @Test
    void badSettingsAreRefusedAtBuildTime() {
        StreamsBuilder builder = new StreamsBuilder();
        EventStream<String, String> events = builder.stream("events", Consumed.with(Serdes.String(), Serdes.String()));
        assertThrows(IllegalArgumentException.class, () -> events.deduplicate(Duration.ZERO));
        EventStream<Integer, String> rekeyed = events.map((k, v) -> io.weir.streams.dsl.KeyValue.pair(v.length(), v));
        IllegalStateException unknownKey = assertThrows(IllegalStateException.class, () -> rekeyed.deduplicate(WITHIN));
        assertTrue(unknownKey.getMessage().contains("key serde"), unknownKey.getMessage());
        // What the message says to do builds.
        assertTrue(unknownKey.getMessage().contains("repartition(Repartitioned.with(keySerde, valueSerde))"));
        EventStream<Integer, String> selected = events.selectKey((k, v) -> v.length());
        assertThrows(IllegalStateException.class, () -> selected.deduplicate(WITHIN));
        selected.repartition(Repartitioned.with(Serdes.Integer(), Serdes.String()))
                .deduplicate(WITHIN)
                .to("unique", Produced.with(Serdes.Integer(), Serdes.String()));
        builder.build();
    }
}
