package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.TimeDomain;
import io.weir.streams.time.WatermarkStrategy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A table's time-to-live, one test per rule: a row not changed for the TTL is deleted (a tombstone in
 * the changelog, a delete downstream, counted), in event time by the watermark or in processing time
 * by the clock, at the commit after it expired; a change renews it; a change to an expired row finds it
 * gone before that commit; the deletion survives restarts.
 */
class TimeToLiveContractTest {

    private static final Duration TTL = Duration.ofMinutes(1);
    private static final TestDriverConfig CONFIG = TestDriverConfig.defaults().withApplicationId("ttl");

    /** "clicks" counted per user, each count living a minute after its latest click, to "counts". */
    private static TestDriver counts(Materialized<String, Long> materialized) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "clicks",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey()
                .count(materialized)
                .toStream()
                .to("counts", Produced.with(Serdes.String(), Serdes.Long()));
        return new TestDriver(builder.build(), CONFIG);
    }

    private static TestDriver counts() {
        return counts(Materialized.<String, Long>as("clicks-per-user").withTimeToLive(TTL));
    }

    private static void click(TestInputTopic<String, String> in, String user, long time) {
        in.pipe(TestRecord.of(user, "/").at(time));
    }

    @Test
    void aRowTheWatermarkPassedByTheTtlIsDeletedDownstreamAndCounted() {
        try (TestDriver driver = counts()) {
            TestInputTopic<String, String> in = driver.input("clicks", Serdes.String(), Serdes.String());
            TestOutputTopic<String, Long> out = driver.output("counts", Serdes.String(), Serdes.Long());
            click(in, "ann", 0);
            driver.commit();
            assertEquals(List.of(1L), out.readValues());
            click(in, "bob", 60_000);
            driver.commit();
            assertEquals(Map.of("bob", 1L), out.readLatestByKey(), "the watermark is 59 999: ann lives");
            click(in, "bob", 60_001);
            driver.commit();
            List<OutputRecord<String, Long>> changes = out.readAll();
            OutputRecord<String, Long> ann = changes.stream()
                    .filter(r -> r.key().equals("ann"))
                    .findFirst()
                    .orElseThrow();
            assertNull(ann.value(), "at 60 000 = 0 + 1 min, ann is deleted: a tombstone");
            assertEquals(Map.of("bob", 2L), driver.table("clicks-per-user", Serdes.String(), Serdes.Long()));
            assertEquals(1, driver.metrics().total(WeirMetrics.ROWS_EXPIRED));
        }
    }

    @Test
    void aChangeRenewsTheTtlAndAnExpiredKeyStartsAfresh() {
        try (TestDriver driver = counts()) {
            TestInputTopic<String, String> in = driver.input("clicks", Serdes.String(), Serdes.String());
            TestOutputTopic<String, Long> out = driver.output("counts", Serdes.String(), Serdes.Long());
            click(in, "ann", 0);
            click(in, "ann", 50_000);
            click(in, "bob", 100_000);
            assertEquals(Map.of("ann", 2L, "bob", 1L), driver.table("clicks-per-user", Serdes.String(), Serdes.Long()));
            click(in, "bob", 110_000);
            assertEquals(
                    Map.of("ann", 2L, "bob", 2L),
                    driver.table("clicks-per-user", Serdes.String(), Serdes.Long()),
                    "the click at 50 000 renewed ann until 110 000; the watermark is 109 999");
            click(in, "bob", 110_001);
            driver.commit();
            assertEquals(
                    Map.of("bob", 3L),
                    driver.table("clicks-per-user", Serdes.String(), Serdes.Long()),
                    "expired rows are purged before the commit");
            click(in, "ann", 110_001);
            driver.commit();
            assertEquals(
                    Map.of("ann", 1L, "bob", 3L), out.readLatestByKey(), "ann expired at 110 000 and counts from 1");
        }
    }

    @Test
    void aChangeToARowThatExpiredFindsItGoneBeforeTheCommitPurgesIt() {
        try (TestDriver driver = counts()) {
            TestInputTopic<String, String> in = driver.input("clicks", Serdes.String(), Serdes.String());
            TestOutputTopic<String, Long> out = driver.output("counts", Serdes.String(), Serdes.Long());
            click(in, "ann", 0);
            click(in, "ann", 0);
            driver.commit();
            assertEquals(List.of(2L), out.readValues());
            click(in, "bob", 60_001);
            click(in, "ann", 60_001);
            assertEquals(1, driver.metrics().total(WeirMetrics.ROWS_EXPIRED));
            driver.commit();
            assertEquals(
                    Map.of("ann", 1L, "bob", 1L),
                    out.readLatestByKey(),
                    "ann (2) expired at 60 000, so this click counts from 1");
        }
    }

    @Test
    void aChangeAlreadyPastItsTtlIsDeletedAtOnce() {
        try (TestDriver driver = counts()) {
            TestInputTopic<String, String> in = driver.input("clicks", Serdes.String(), Serdes.String());
            TestOutputTopic<String, Long> out = driver.output("counts", Serdes.String(), Serdes.Long());
            click(in, "bob", 200_000);
            driver.commit();
            out.readAll();
            click(in, "ann", 10_000);
            driver.commit();
            assertTrue(out.isEmpty(), "ann's row would expire at 70 000, behind the watermark: never emitted");
            assertEquals(Map.of("bob", 1L), driver.table("clicks-per-user", Serdes.String(), Serdes.Long()));
            assertEquals(1, driver.metrics().total(WeirMetrics.ROWS_EXPIRED));
        }
    }

    @Test
    void inProcessingTimeARowNotChangedForTheTtlOfWallClockIsDeleted() {
        try (TestDriver driver = counts(
                Materialized.<String, Long>as("clicks-per-user").withTimeToLive(TTL, TimeDomain.PROCESSING_TIME))) {
            TestInputTopic<String, String> in = driver.input("clicks", Serdes.String(), Serdes.String());
            in.pipe(TestRecord.of("ann", "/").at(0).arrivingAt(1_000));
            in.pipe(TestRecord.of("bob", "/").at(500_000).arrivingAt(30_000));
            driver.advanceTime(Duration.ofSeconds(31));
            assertEquals(
                    Map.of("bob", 1L),
                    driver.table("clicks-per-user", Serdes.String(), Serdes.Long()),
                    "at 61 s of wall clock ann has lived a minute; the event times do not matter");
            driver.advanceTime(Duration.ofSeconds(30));
            assertEquals(Map.of(), driver.table("clicks-per-user", Serdes.String(), Serdes.Long()));
        }
    }

    @Test
    void theTtlSurvivesARestart() {
        try (TestDriver driver = counts()) {
            TestInputTopic<String, String> in = driver.input("clicks", Serdes.String(), Serdes.String());
            click(in, "ann", 0);
            driver.restart();
            click(in, "bob", 60_001);
            driver.commit();
            assertEquals(Map.of("bob", 1L), driver.table("clicks-per-user", Serdes.String(), Serdes.Long()));
        }
    }

    @Test
    void aTopicTableWithATtlKeepsItsOwnChangelogSoExpiredRowsStayDeleted() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.table(
                        "profiles",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()),
                        Materialized.<String, String>as("profile-store")
                                .inMemory()
                                .withTimeToLive(TTL))
                .toStream()
                .to("profile-changes", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build(), CONFIG)) {
            TestInputTopic<String, String> in = driver.input("profiles", Serdes.String(), Serdes.String());
            in.pipe(TestRecord.of("ann", "eu").at(0));
            in.pipe(TestRecord.of("bob", "us").at(60_001));
            driver.commit();
            assertEquals(Map.of("bob", "us"), driver.table("profile-store", Serdes.String(), Serdes.String()));
            driver.restart();
            assertEquals(
                    Map.of("bob", "us"),
                    driver.table("profile-store", Serdes.String(), Serdes.String()),
                    "restored from its own changelog, with ann's tombstone, not from the topic");
            TestOutputTopic<String, String> changelog =
                    driver.output("ttl-profile-store-changelog", Serdes.String(), Serdes.String());
            assertTrue(
                    changelog.readAll().stream().anyMatch(r -> r.value() == null),
                    "the expiry is a tombstone in the changelog");
        }
    }

    @Test
    void aTtlIsRefusedWhereItMeansNothing() {
        StreamsBuilder builder = new StreamsBuilder();
        IllegalStateException windowed = assertThrows(
                IllegalStateException.class,
                () -> builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                        .groupByKey()
                        .windowedBy(TumblingWindows.of(Duration.ofMinutes(1)))
                        .count(Materialized.<String, Long>as("w").withTimeToLive(TTL)));
        assertTrue(windowed.getMessage().contains("withTimeToLive"), windowed.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Materialized.as("x").withTimeToLive(Duration.ZERO));
    }
}
