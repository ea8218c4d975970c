package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Named;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.dsl.Table;
import io.weir.streams.errors.ErrorDecision;
import io.weir.streams.errors.RecordErrorHandler;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tables and aggregations without windows, one test per rule: a table holds one value per key, its
 * changes carry the old value so a re-keyed aggregation takes it back, and a materialized table emits
 * the last value per key at each commit unless told to emit every change.
 */
class TableContractTest {

    private static final TestDriverConfig CONFIG =
            TestDriverConfig.defaults().withApplicationId("tables").withCommitInterval(Duration.ofSeconds(10));

    /** "clicks" (user -> page) counted per user, written to "counts". */
    private static TestDriver clickCounts(Materialized<String, Long> materialized) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .count(materialized)
                .toStream()
                .to("counts", Produced.with(Serdes.String(), Serdes.Long()));
        return new TestDriver(builder.build(), CONFIG);
    }

    /**
     * "moves" (user -> region) as a table of each user's latest region, re-keyed by region and counted:
     * how many users are in each region now.
     */
    private static TestDriver usersPerRegion(Refinement refinement) {
        StreamsBuilder builder = new StreamsBuilder();
        Table<String, String> regionOfUser = builder.stream("moves", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .reduce((previous, latest) -> latest, Materialized.as("region-of-user"));
        regionOfUser
                .groupBy((user, region) -> KeyValue.pair(region, user), Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.as("users-per-region"))
                .toStream(refinement)
                .to("regions", Produced.with(Serdes.String(), Serdes.Long()));
        return new TestDriver(builder.build(), CONFIG);
    }

    private static void send(TestInputTopic<String, String> in, String key, String value, long time) {
        in.pipe(TestRecord.of(key, value).at(time).arrivingAt(time));
    }

    @Test
    void anAggregationWithoutWindowsEmitsTheLastValuePerKeyAtEachCommit() {
        try (TestDriver driver = clickCounts(Materialized.as("clicks-per-user"))) {
            TestInputTopic<String, String> in = driver.input("clicks", Serdes.String(), Serdes.String());
            TestOutputTopic<String, Long> out = driver.output("counts", Serdes.String(), Serdes.Long());
            send(in, "ann", "/a", 1_000);
            send(in, "ann", "/b", 2_000);
            send(in, "bob", "/a", 3_000);
            assertTrue(out.isEmpty(), "nothing before the commit");
            assertEquals(Map.of("ann", 2L, "bob", 1L), driver.table("clicks-per-user", Serdes.String(), Serdes.Long()));
            driver.commit();
            List<OutputRecord<String, Long>> emitted = out.readAll();
            assertEquals(2, emitted.size(), "one change per key: the updates between commits are coalesced");
            assertEquals(
                    Map.of("ann", 2L, "bob", 1L),
                    Map.of(
                            emitted.get(0).key(),
                            emitted.get(0).value(),
                            emitted.get(1).key(),
                            emitted.get(1).value()));
            assertEquals(2_000, emitted.get(0).timestamp(), "a row's event time is the largest of its changes");
            send(in, "ann", "/c", 4_000);
            driver.commit();
            assertEquals(List.of(3L), out.readValues(), "only the key changed since the last commit");
            assertEquals(3, driver.metrics().total(WeirMetrics.TABLE_CHANGES_EMITTED));
        }
    }

    @Test
    void withEmitEveryChangeEachUpdateIsEmittedAsItHappens() {
        try (TestDriver driver =
                clickCounts(Materialized.<String, Long>as("clicks-per-user").withEmitEveryChange())) {
            TestInputTopic<String, String> in = driver.input("clicks", Serdes.String(), Serdes.String());
            TestOutputTopic<String, Long> out = driver.output("counts", Serdes.String(), Serdes.Long());
            send(in, "ann", "/a", 1_000);
            send(in, "ann", "/b", 2_000);
            assertEquals(List.of(1L, 2L), out.readValues());
        }
    }

    @Test
    void aKeyWhoseValueEndsACommitWhereItStartedEmitsNothing() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("moves", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .reduce((previous, latest) -> latest, Materialized.as("region-of-user"))
                .toStream()
                .to("latest", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build(), CONFIG)) {
            TestInputTopic<String, String> in = driver.input("moves", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("latest", Serdes.String(), Serdes.String());
            send(in, "ann", "eu", 1_000);
            driver.commit();
            assertEquals(List.of("eu"), out.readValues());
            send(in, "ann", "us", 2_000);
            send(in, "ann", "eu", 3_000);
            driver.commit();
            assertTrue(out.isEmpty(), "eu -> us -> eu between two commits is no change");
        }
    }

    @Test
    void aReKeyedAggregationTakesTheOldValueBackFromItsGroupAndAddsTheNewOne() {
        try (TestDriver driver = usersPerRegion(Refinement.ACCUMULATING)) {
            TestInputTopic<String, String> in = driver.input("moves", Serdes.String(), Serdes.String());
            TestOutputTopic<String, Long> out = driver.output("regions", Serdes.String(), Serdes.Long());
            send(in, "ann", "eu", 1_000);
            send(in, "bob", "eu", 1_000);
            send(in, "cat", "us", 1_000);
            driver.commit();
            assertEquals(Map.of("eu", 2L, "us", 1L), out.readLatestByKey());
            send(in, "ann", "us", 2_000);
            driver.commit();
            assertEquals(Map.of("eu", 1L, "us", 2L), out.readLatestByKey(), "ann left eu for us: -1 and +1");
            assertEquals(Map.of("eu", 1L, "us", 2L), driver.table("users-per-region", Serdes.String(), Serdes.Long()));
        }
    }

    @Test
    void aGroupWhoseLastRowIsTakenBackIsDeleted() {
        try (TestDriver driver = usersPerRegion(Refinement.ACCUMULATING)) {
            TestInputTopic<String, String> in = driver.input("moves", Serdes.String(), Serdes.String());
            TestOutputTopic<String, Long> out = driver.output("regions", Serdes.String(), Serdes.Long());
            send(in, "ann", "eu", 1_000);
            driver.commit();
            out.readAll();
            send(in, "ann", "us", 2_000);
            driver.commit();
            List<OutputRecord<String, Long>> changes = out.readAll();
            assertEquals(2, changes.size());
            OutputRecord<String, Long> eu = changes.stream()
                    .filter(r -> r.key().equals("eu"))
                    .findFirst()
                    .orElseThrow();
            assertNull(eu.value(), "eu has no user left: a tombstone, not a count of 0");
            assertEquals(Map.of("us", 1L), driver.table("users-per-region", Serdes.String(), Serdes.Long()));
        }
    }

    @Test
    void aKeysChangeIsNeverStampedEarlierThanTheRowItReplaces() {
        try (TestDriver driver = usersPerRegion(Refinement.ACCUMULATING)) {
            TestInputTopic<String, String> in = driver.input("moves", Serdes.String(), Serdes.String());
            TestOutputTopic<String, Long> out = driver.output("regions", Serdes.String(), Serdes.Long());
            send(in, "bob", "eu", 23);
            driver.commit();
            assertEquals(23, out.readAll().get(0).timestamp());
            // Out of order: the move is stamped earlier than the row it replaces.
            send(in, "bob", "us", 22);
            driver.commit();
            Map<String, OutputRecord<String, Long>> changes = new TreeMap<>();
            out.readAll().forEach(r -> changes.put(r.key(), r));
            assertNull(changes.get("eu").value());
            assertEquals(23, changes.get("eu").timestamp(), "the delete of a row at 23 is not stamped 22");
            assertEquals(23, changes.get("us").timestamp());
            assertEquals(
                    23,
                    driver.<String, Long>timestampedTable("users-per-region")
                            .get("us")
                            .timestamp());
        }
    }

    @Test
    void aChangeWithinItsGroupTravelsAsOneRecordAndMovesTheAggregateOnce() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("spend", Consumed.with(Serdes.String(), Serdes.Long()))
                .groupByKey()
                .reduce(
                        (previous, latest) -> latest,
                        Materialized.<String, Long>as("spend-of-user").withEmitEveryChange())
                .groupBy((user, amount) -> KeyValue.pair("all", amount), Grouped.with(Serdes.String(), Serdes.Long()))
                .reduce(
                        Long::sum,
                        (total, amount) -> total - amount,
                        Materialized.<String, Long>as("total-spend").withEmitEveryChange())
                .toStream()
                .to("totals", Produced.with(Serdes.String(), Serdes.Long()));
        try (TestDriver driver = new TestDriver(builder.build(), CONFIG.withCommitInterval(Duration.ofMillis(1)))) {
            TestInputTopic<String, Long> in = driver.input("spend", Serdes.String(), Serdes.Long());
            TestOutputTopic<String, Long> out = driver.output("totals", Serdes.String(), Serdes.Long());
            in.pipe(TestRecord.of("ann", 10L).at(1_000).arrivingAt(1_000));
            in.pipe(TestRecord.of("bob", 5L).at(1_000).arrivingAt(1_010));
            in.pipe(TestRecord.of("ann", 30L).at(2_000).arrivingAt(1_020));
            driver.commit();
            assertEquals(
                    List.of(10L, 15L, 35L),
                    out.readValues(),
                    "every change emitted, yet ann's 10 -> 30 is one change (-10 +30): no total of 5 between");
        }
    }

    @Test
    void aRetractingStreamOfATableRetractsTheOldValueBeforeTheNew() {
        try (TestDriver driver = usersPerRegion(Refinement.ACCUMULATING_AND_RETRACTING)) {
            TestInputTopic<String, String> in = driver.input("moves", Serdes.String(), Serdes.String());
            TestOutputTopic<String, Long> out = driver.output("regions", Serdes.String(), Serdes.Long());
            send(in, "ann", "eu", 1_000);
            send(in, "bob", "eu", 1_000);
            driver.commit();
            out.readAll();
            send(in, "bob", "us", 2_000);
            driver.commit();
            List<String> seen = new ArrayList<>();
            for (OutputRecord<String, Long> r : out.readAll()) {
                seen.add(r.key() + (r.header(PaneInfo.RETRACTION_HEADER) != null ? " -" : " +") + r.value());
            }
            assertTrue(seen.containsAll(List.of("eu -2", "eu +1", "us +1")), seen.toString());
            assertEquals(seen.indexOf("eu -2") + 1, seen.indexOf("eu +1"), "the retraction comes first: " + seen);
            assertEquals(3, seen.size(), "us had no value before: nothing to retract");
        }
    }

    /**
     * A table's retraction carries the retraction header alone (a change is not a pane) and is counted as
     * a window pane's is, under the node that sends it; a change without an old value retracts nothing.
     */
    @Test
    void aTablesRetractionsAreMarkedAndCountedAsAPanesAre() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("moves", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .reduce((previous, latest) -> latest, Materialized.as("region-of-user"))
                .toStream(Refinement.ACCUMULATING_AND_RETRACTING, Named.as("region-changes"))
                .to("changes", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build(), CONFIG)) {
            TestInputTopic<String, String> in = driver.input("moves", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("changes", Serdes.String(), Serdes.String());
            send(in, "ann", "eu", 1_000);
            driver.commit();
            send(in, "ann", "us", 2_000);
            driver.commit();
            List<OutputRecord<String, String>> records = out.readAll();
            assertEquals(3, records.size(), records.toString());
            assertNull(records.get(0).header(PaneInfo.RETRACTION_HEADER), "an insert retracts nothing");
            assertEquals("eu", records.get(1).value());
            assertEquals("true", records.get(1).header(PaneInfo.RETRACTION_HEADER));
            assertTrue(records.get(1).pane().isEmpty(), "a table's retraction is not a pane");
            assertEquals("us", records.get(2).value());
            assertEquals(1, driver.metrics().get("region-changes", WeirMetrics.RETRACTIONS));
        }
    }

    @Test
    void aFilteredTableDeletesARowThatStopsPassing() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .count(Materialized.as("clicks-per-user"))
                .filter((user, count) -> count < 3)
                .toStream()
                .to("light-users", Produced.with(Serdes.String(), Serdes.Long()));
        try (TestDriver driver = new TestDriver(builder.build(), CONFIG)) {
            TestInputTopic<String, String> in = driver.input("clicks", Serdes.String(), Serdes.String());
            TestOutputTopic<String, Long> out = driver.output("light-users", Serdes.String(), Serdes.Long());
            send(in, "ann", "/a", 1_000);
            driver.commit();
            send(in, "ann", "/b", 2_000);
            send(in, "ann", "/c", 3_000);
            driver.commit();
            send(in, "ann", "/d", 4_000);
            driver.commit();
            assertEquals(
                    Arrays.asList(1L, null),
                    out.readValues(),
                    "1 passes; 3 does not: a delete; 4 fails before and after: nothing");
        }
    }

    @Test
    void aTableKeepsItsRowsAcrossARestart() {
        try (TestDriver driver = clickCounts(Materialized.as("clicks-per-user"))) {
            TestInputTopic<String, String> in = driver.input("clicks", Serdes.String(), Serdes.String());
            TestOutputTopic<String, Long> out = driver.output("counts", Serdes.String(), Serdes.Long());
            send(in, "ann", "/a", 1_000);
            send(in, "ann", "/b", 2_000);
            driver.restart();
            assertEquals(List.of(2L), out.readValues(), "the restart committed first");
            send(in, "ann", "/c", 3_000);
            driver.commit();
            assertEquals(List.of(3L), out.readValues());
        }
    }

    @Test
    void recordsWithANullKeyAreCountedAndSkipped() {
        try (TestDriver driver = clickCounts(Materialized.as("clicks-per-user"))) {
            TestInputTopic<String, String> in = driver.input("clicks", Serdes.String(), Serdes.String());
            in.pipe(TestRecord.<String, String>of(null, "/a").at(1_000));
            send(in, "ann", "/a", 1_000);
            driver.commit();
            assertEquals(1, driver.metrics().total(WeirMetrics.NULL_KEY_RECORDS_SKIPPED));
            assertEquals(Map.of("ann", 1L), driver.table("clicks-per-user", Serdes.String(), Serdes.Long()));
        }
    }

    @Test
    void settingsThatMeanNothingForTablesAreRefusedAtBuildTime() {
        StreamsBuilder builder = new StreamsBuilder();
        Table<String, Long> counts = builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .count();
        IllegalArgumentException discarding =
                assertThrows(IllegalArgumentException.class, () -> counts.toStream(Refinement.DISCARDING));
        assertTrue(discarding.getMessage().contains("DISCARDING"), discarding.getMessage());
        IllegalStateException retention = assertThrows(
                IllegalStateException.class,
                () -> builder.stream("other", Consumed.with(Serdes.String(), Serdes.String()))
                        .groupByKey()
                        .count(Materialized.<String, Long>as("c").withRetention(Duration.ofMinutes(1))));
        assertTrue(retention.getMessage().contains("withRetention"), retention.getMessage());
        IllegalStateException serde = assertThrows(
                IllegalStateException.class,
                () -> counts.mapValues(String::valueOf).groupBy((k, v) -> KeyValue.pair(v, k)));
        assertTrue(serde.getMessage().contains("Grouped.with"), serde.getMessage());
    }

    /** "profiles" (user -> region) read as a table, its changes written to "profile-changes". */
    private static TestDriver profiles(Materialized<String, String> materialized) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.table("profiles", Consumed.with(Serdes.String(), Serdes.String()), materialized)
                .toStream()
                .to("profile-changes", Produced.with(Serdes.String(), Serdes.String()));
        return new TestDriver(builder.build(), CONFIG);
    }

    @Test
    void aTableFromATopicHoldsTheLastValuePerKeyAndATombstoneDeletesIt() {
        try (TestDriver driver = profiles(Materialized.as("profile-store"))) {
            TestInputTopic<String, String> in = driver.input("profiles", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("profile-changes", Serdes.String(), Serdes.String());
            send(in, "ann", "eu", 1_000);
            send(in, "bob", "us", 1_000);
            send(in, "ann", "apac", 500);
            assertEquals(
                    Map.of("ann", "apac", "bob", "us"),
                    driver.table("profile-store", Serdes.String(), Serdes.String()),
                    "the last by offset wins, whatever its event time");
            driver.commit();
            assertEquals(Map.of("ann", "apac", "bob", "us"), out.readLatestByKey());
            in.pipe(TestRecord.<String, String>of("bob", null).at(2_000));
            driver.commit();
            List<OutputRecord<String, String>> deleted = out.readAll();
            assertEquals(1, deleted.size());
            assertNull(deleted.get(0).value(), "a delete goes downstream as a tombstone");
            assertEquals(Map.of("ann", "apac"), driver.table("profile-store", Serdes.String(), Serdes.String()));
        }
    }

    @Test
    void aTopicTablesChangeIsNeverStampedEarlierThanTheRowItReplaces() {
        try (TestDriver driver =
                profiles(Materialized.<String, String>as("profile-store").withEmitEveryChange())) {
            TestInputTopic<String, String> in = driver.input("profiles", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("profile-changes", Serdes.String(), Serdes.String());
            send(in, "ann", "eu", 1_000);
            send(in, "ann", "apac", 500);
            in.pipe(TestRecord.<String, String>of("ann", null).at(700));
            List<Long> times =
                    out.readAll().stream().map(OutputRecord::timestamp).toList();
            assertEquals(
                    List.of(1_000L, 1_000L, 1_000L), times, "an update at 500 and a delete at 700 of a row at 1000");
        }
    }

    @Test
    void aTombstoneForAKeyTheTableDoesNotHoldIsCountedAndChangesNothing() {
        try (TestDriver driver = profiles(Materialized.as("profile-store"))) {
            TestInputTopic<String, String> in = driver.input("profiles", Serdes.String(), Serdes.String());
            TestOutputTopic<String, String> out = driver.output("profile-changes", Serdes.String(), Serdes.String());
            in.pipe(TestRecord.<String, String>of("nobody", null).at(1_000));
            driver.commit();
            assertTrue(out.isEmpty());
            assertEquals(1, driver.metrics().total(WeirMetrics.TOMBSTONES_FOR_ABSENT_KEYS));
        }
    }

    @Test
    void anInMemoryTableRestoresFromItsOwnTopicWithNoChangelogOfItsOwn() {
        try (TestDriver driver =
                profiles(Materialized.<String, String>as("profile-store").inMemory())) {
            TestInputTopic<String, String> in = driver.input("profiles", Serdes.String(), Serdes.String());
            send(in, "ann", "eu", 1_000);
            send(in, "bob", "us", 1_000);
            in.pipe(TestRecord.<String, String>of("bob", null).at(2_000));
            driver.restart();
            assertEquals(
                    Map.of("ann", "eu"),
                    driver.table("profile-store", Serdes.String(), Serdes.String()),
                    "replayed from the topic 'profiles'");
            assertThrows(
                    IllegalArgumentException.class,
                    () -> driver.output("tables-profile-store-changelog", Serdes.String(), Serdes.String()),
                    "no changelog topic of its own");
        }
    }

    @Test
    void aReKeyedAggregationOfATopicTableTakesBackDeletedRows() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.table("profiles", Consumed.with(Serdes.String(), Serdes.String()))
                .groupBy((user, region) -> KeyValue.pair(region, user))
                .count(Materialized.as("users-per-region"))
                .toStream()
                .to("regions", Produced.with(Serdes.String(), Serdes.Long()));
        try (TestDriver driver = new TestDriver(builder.build(), CONFIG)) {
            TestInputTopic<String, String> in = driver.input("profiles", Serdes.String(), Serdes.String());
            TestOutputTopic<String, Long> out = driver.output("regions", Serdes.String(), Serdes.Long());
            send(in, "ann", "eu", 1_000);
            send(in, "bob", "eu", 1_000);
            driver.commit();
            assertEquals(Map.of("eu", 2L), out.readLatestByKey());
            in.pipe(TestRecord.<String, String>of("bob", null).at(2_000));
            driver.commit();
            assertEquals(List.of(1L), out.readValues());
        }
    }

    @Test
    void aTopicIsReadAsATableOnceAndATableTakesNoSerdesOfItsOwn() {
        StreamsBuilder builder = new StreamsBuilder();
        Consumed<String, String> strings = Consumed.with(Serdes.String(), Serdes.String());
        builder.table("profiles", strings);
        IllegalArgumentException twice =
                assertThrows(IllegalArgumentException.class, () -> builder.stream("profiles", strings));
        assertTrue(twice.getMessage().contains("read as a table"), twice.getMessage());
        IllegalStateException serdes = assertThrows(
                IllegalStateException.class,
                () -> builder.table(
                        "third", strings, Materialized.<String, String>as("t").withValueSerde(Serdes.String())));
        assertTrue(serdes.getMessage().contains("Consumed"), serdes.getMessage());
    }

    @Test
    void aTableTakesAnUpdateBeyondTheFutureSkewButItDoesNotMoveTheTablesWatermark() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.table(
                        "profiles",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()
                                        .withMaxFutureSkew(Duration.ofMinutes(1))),
                        Materialized.as("profiles"))
                .toStream()
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build())) {
            TestInputTopic<String, String> in = driver.input("profiles", Serdes.String(), Serdes.String());
            in.pipe(TestRecord.of("alice", "v1").at(1_000));
            in.pipe(TestRecord.of("alice", "v2").at(Long.MAX_VALUE - 1).arrivingAt(1_000));
            driver.commit();
            assertEquals(
                    Map.of("alice", "v2"),
                    driver.table("profiles", Serdes.String(), Serdes.String()),
                    "a table takes every update");
            assertEquals(999, driver.watermark("profiles", 0), "but its time is not trusted");
        }
    }

    @Test
    void anUndecodableRecordOfATableGoesToTheSourcesHandlerAndARestoreSkipsItToo() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.table(
                        "balances",
                        Consumed.with(Serdes.String(), Serdes.Long())
                                .withErrorHandler(RecordErrorHandler.logAndContinue()),
                        Materialized.<String, Long>as("balance-store").inMemory())
                .toStream()
                .to("balance-changes", Produced.with(Serdes.String(), Serdes.Long()));
        try (TestDriver driver = new TestDriver(builder.build(), CONFIG)) {
            TestInputTopic<String, Long> in = driver.input("balances", Serdes.String(), Serdes.Long());
            TestInputTopic<String, String> raw = driver.input("balances", Serdes.String(), Serdes.String());
            in.pipe(TestRecord.of("ann", 10L).at(1_000));
            raw.pipe(TestRecord.of("ann", "not a long").at(2_000));
            in.pipe(TestRecord.of("bob", 5L).at(3_000));
            assertEquals(1, driver.metrics().total(WeirMetrics.RECORDS_SKIPPED));
            assertEquals(Map.of("ann", 10L, "bob", 5L), driver.table("balance-store", Serdes.String(), Serdes.Long()));
            driver.restart();
            assertEquals(
                    Map.of("ann", 10L, "bob", 5L),
                    driver.table("balance-store", Serdes.String(), Serdes.Long()),
                    "restored from the topic, the undecodable record skipped as processing skipped it");
        }
    }

    @Test
    void aNamedTableOperatorIsNamedInItsProcessingErrors() {
        List<String> operators = new ArrayList<>();
        StreamsBuilder builder = new StreamsBuilder();
        builder.setProcessingErrorHandler(error -> {
            operators.add(error.operator());
            return ErrorDecision.CONTINUE;
        });
        builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .count(Materialized.<String, Long>as("clicks-per-user").withEmitEveryChange())
                .mapValues(count -> 10 / (2 - count), Named.as("clicks-ratio"))
                .toStream(Refinement.ACCUMULATING, Named.as("ratio-changes"))
                .to("ratios", Produced.with(Serdes.String(), Serdes.Long()));
        try (TestDriver driver = new TestDriver(builder.build(), CONFIG)) {
            TestInputTopic<String, String> in = driver.input("clicks", Serdes.String(), Serdes.String());
            TestOutputTopic<String, Long> out = driver.output("ratios", Serdes.String(), Serdes.Long());
            send(in, "ann", "/a", 1_000);
            send(in, "ann", "/b", 2_000);
            assertEquals(List.of("clicks-ratio"), operators, "the second count divides by zero");
            assertEquals(List.of(10L), out.readValues());
        }
    }

    @Test
    void aMaterializedDerivedTableKeepsItsRowsInItsOwnStoreAndEmitsAtCommit() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("moves", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .reduce(
                        (previous, latest) -> latest,
                        Materialized.<String, String>as("region-of-user").withEmitEveryChange())
                .mapValues(
                        region -> region.length(),
                        Materialized.<String, Integer>as("region-name-length").withValueSerde(Serdes.Integer()))
                .toStream()
                .to("lengths", Produced.with(Serdes.String(), Serdes.Integer()));
        try (TestDriver driver = new TestDriver(builder.build(), CONFIG)) {
            TestInputTopic<String, String> in = driver.input("moves", Serdes.String(), Serdes.String());
            TestOutputTopic<String, Integer> out = driver.output("lengths", Serdes.String(), Serdes.Integer());
            send(in, "ann", "eu", 1_000);
            send(in, "ann", "apac", 2_000);
            assertEquals(Map.of("ann", 4), driver.table("region-name-length", Serdes.String(), Serdes.Integer()));
            assertTrue(out.isEmpty(), "the upstream table emits every change, the derived one at commit");
            driver.commit();
            assertEquals(List.of(4), out.readValues(), "eu's 2, then apac's 4: one change at the commit");
            assertTrue(
                    driver.output("tables-region-name-length-changelog", Serdes.String(), Serdes.String())
                                    .size()
                            > 0,
                    "a changelog of its own");
        }
        StreamsBuilder unknown = new StreamsBuilder();
        Table<String, Long> counts = unknown.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .count();
        IllegalStateException serde = assertThrows(
                IllegalStateException.class,
                () -> counts.mapValues(String::valueOf, Materialized.<String, String>as("as-text")));
        assertTrue(serde.getMessage().contains("withValueSerde"), serde.getMessage());
    }

    @Test
    void aRecordWithANullKeyIntoATopicTableIsCountedAndSkipped() {
        try (TestDriver driver = profiles(Materialized.as("profile-store"))) {
            TestInputTopic<String, String> in = driver.input("profiles", Serdes.String(), Serdes.String());
            in.pipe(TestRecord.<String, String>of(null, "eu").at(1_000));
            send(in, "ann", "us", 1_000);
            assertEquals(1, driver.metrics().total(WeirMetrics.NULL_KEY_RECORDS_SKIPPED));
            assertEquals(Map.of("ann", "us"), driver.table("profile-store", Serdes.String(), Serdes.String()));
        }
    }

    @Test
    void aTableSelectorThatThrowsGoesToTheProcessingErrorHandler() {
        List<String> operators = new ArrayList<>();
        StreamsBuilder builder = new StreamsBuilder();
        builder.setProcessingErrorHandler(error -> {
            operators.add(error.operator());
            return ErrorDecision.CONTINUE;
        });
        builder.table("profiles", Consumed.with(Serdes.String(), Serdes.String()))
                .groupBy(
                        (user, region) -> {
                            if (region.isEmpty()) {
                                throw new IllegalArgumentException("no region");
                            }
                            return KeyValue.pair(region, user);
                        },
                        Grouped.with(Serdes.String(), Serdes.String()).withName("by-region"))
                .count(Materialized.as("users-per-region"))
                .toStream()
                .to("regions", Produced.with(Serdes.String(), Serdes.Long()));
        try (TestDriver driver = new TestDriver(builder.build(), CONFIG)) {
            TestInputTopic<String, String> in = driver.input("profiles", Serdes.String(), Serdes.String());
            send(in, "ann", "", 1_000);
            send(in, "bob", "eu", 1_000);
            driver.commit();
            assertEquals(List.of("by-region-select"), operators);
            assertEquals(1, driver.metrics().total(WeirMetrics.RECORDS_PROCESSING_SKIPPED));
            assertEquals(
                    Map.of("eu", 1L),
                    driver.output("regions", Serdes.String(), Serdes.Long()).readLatestByKey(),
                    "the other rows are counted");
        }
    }
}
