package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.dsl.Table;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.test.ValueAndTimestamp;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Table–table joins, one test per rule: inner, left and outer give a row exactly when their inputs
 * do; a delete on either side deletes or changes the result; each change carries the exact old result;
 * the result does not depend on which side's change arrived first; changes are coalesced to one per key
 * and commit unless every change is asked for; the result survives a restart and can be joined again;
 * a Materialized the join cannot honour is refused.
 */
class TableTableJoinTest {

    private enum Kind {
        INNER,
        LEFT,
        OUTER
    }

    /**
     * Users (id -> name) joined with their addresses (id -> city), the changes to "joined"; with {@code
     * everyChange}, the input tables and the join emit every change instead of the last per commit.
     */
    private static TestDriver users(Kind kind, boolean everyChange) {
        StreamsBuilder builder = new StreamsBuilder();
        Table<String, String> names = builder.table(
                "names", Consumed.with(Serdes.String(), Serdes.String()), emitting("names-store", everyChange));
        Table<String, String> cities = builder.table(
                "cities", Consumed.with(Serdes.String(), Serdes.String()), emitting("cities-store", everyChange));
        Materialized<String, String> store = emitting("users", everyChange);
        Table<String, String> joined = switch (kind) {
            case INNER -> names.join(cities, (n, c) -> n + "@" + c, store);
            case LEFT -> names.leftJoin(cities, (n, c) -> n + "@" + c, store);
            case OUTER -> names.outerJoin(cities, (n, c) -> n + "@" + c, store);
        };
        joined.toStream(Refinement.ACCUMULATING_AND_RETRACTING)
                .to("joined", Produced.with(Serdes.String(), Serdes.String()));
        return new TestDriver(builder.build(), TestDriverConfig.defaults().withCommitInterval(Duration.ofDays(1)));
    }

    private static Materialized<String, String> emitting(String store, boolean everyChange) {
        Materialized<String, String> materialized = Materialized.as(store);
        return everyChange ? materialized.withEmitEveryChange() : materialized;
    }

    @Test
    void anInnerJoinHasARowWhileBothTablesDoAndADeleteOnEitherSideDeletesIt() {
        try (TestDriver driver = users(Kind.INNER, false)) {
            TestOutputTopic<String, String> out = driver.output("joined", Serdes.String(), Serdes.String());
            TableChanges.put(driver, "names", "u1", "Ann");
            driver.commit();
            assertEquals(List.of(), TableChanges.read(out));
            TableChanges.put(driver, "cities", "u1", "Oslo");
            driver.commit();
            assertEquals(List.of("u1=Ann@Oslo"), TableChanges.read(out));
            TableChanges.put(driver, "cities", "u1", null);
            driver.commit();
            assertEquals(List.of("u1-=Ann@Oslo", "u1=null"), TableChanges.read(out));
            TableChanges.put(driver, "cities", "u1", "Rome");
            TableChanges.put(driver, "names", "u1", null);
            driver.commit();
            assertEquals(List.of(), TableChanges.read(out), "no row at either commit: nothing to say");
        }
    }

    @Test
    void aLeftJoinHasARowForEveryLeftRowAndAnOuterJoinForEveryRowOfEither() {
        try (TestDriver driver = users(Kind.LEFT, true)) {
            TestOutputTopic<String, String> out = driver.output("joined", Serdes.String(), Serdes.String());
            TableChanges.put(driver, "cities", "u2", "Oslo");
            TableChanges.put(driver, "names", "u1", "Ann");
            TableChanges.put(driver, "cities", "u1", "Rome");
            assertEquals(List.of("u1=Ann@null", "u1-=Ann@null", "u1=Ann@Rome"), TableChanges.read(out));
        }
        try (TestDriver driver = users(Kind.OUTER, true)) {
            TestOutputTopic<String, String> out = driver.output("joined", Serdes.String(), Serdes.String());
            TableChanges.put(driver, "cities", "u2", "Oslo");
            TableChanges.put(driver, "names", "u1", "Ann");
            TableChanges.put(driver, "cities", "u2", null);
            assertEquals(List.of("u2=null@Oslo", "u1=Ann@null", "u2-=null@Oslo", "u2=null"), TableChanges.read(out));
        }
    }

    @Test
    void aDeleteOnOneSideIsStampedWithItsOwnTimeNotTheOtherSidesRow() {
        for (Kind kind : List.of(Kind.INNER, Kind.LEFT)) {
            try (TestDriver driver = users(kind, true)) {
                TestOutputTopic<String, String> out = driver.output("joined", Serdes.String(), Serdes.String());
                put(driver, "names", "u1", "X", 6);
                put(driver, "cities", "u1", "Y", 5);
                out.readAll();
                put(driver, "cities", "u1", null, 7);
                List<OutputRecord<String, String>> changes = out.readAll();
                OutputRecord<String, String> last = changes.get(changes.size() - 1);
                assertEquals(kind == Kind.INNER ? null : "X@null", last.value(), kind.toString());
                assertEquals(7, last.timestamp(), kind + ": the change caused by the delete at 7");
            }
        }
    }

    @Test
    void theDriverReadsTheJoinsResultWithItsTimes() {
        try (TestDriver driver = users(Kind.LEFT, false)) {
            put(driver, "names", "u1", "Ann", 3);
            put(driver, "cities", "u1", "Oslo", 9);
            put(driver, "names", "u2", "Bo", 4);
            // The input tables emit their changes at the commit, and the join computes its rows from them.
            driver.commit();
            assertEquals(Map.of("u1", "Ann@Oslo", "u2", "Bo@null"), driver.table("users"));
            Map<String, ValueAndTimestamp<String>> timed = driver.timestampedTable("users");
            assertEquals(new ValueAndTimestamp<>("Ann@Oslo", 9), timed.get("u1"));
            assertEquals(new ValueAndTimestamp<>("Bo@null", 4), timed.get("u2"));
        }
    }

    private static void put(TestDriver driver, String topic, String key, @Nullable String value, long time) {
        driver.input(topic, Serdes.String(), Serdes.String())
                .pipe(TestRecord.of(key, value).at(time));
    }

    @Test
    void everyChangeCarriesTheExactOldResult() {
        try (TestDriver driver = users(Kind.INNER, true)) {
            TestOutputTopic<String, String> out = driver.output("joined", Serdes.String(), Serdes.String());
            TableChanges.put(driver, "names", "u1", "Ann");
            TableChanges.put(driver, "cities", "u1", "Oslo");
            TableChanges.put(driver, "names", "u1", "Anna");
            TableChanges.put(driver, "cities", "u1", "Rome");
            assertEquals(
                    List.of("u1=Ann@Oslo", "u1-=Ann@Oslo", "u1=Anna@Oslo", "u1-=Anna@Oslo", "u1=Anna@Rome"),
                    TableChanges.read(out));
        }
    }

    @Test
    void theResultDoesNotDependOnWhichSidesChangeArrivesFirst() {
        List<String> leftFirst;
        try (TestDriver driver = users(Kind.OUTER, false)) {
            TableChanges.put(driver, "names", "u1", "Ann");
            TableChanges.put(driver, "cities", "u1", "Oslo");
            TableChanges.put(driver, "names", "u2", "Bob");
            driver.commit();
            leftFirst = driver.output("joined", Serdes.String(), Serdes.String()).readAll().stream()
                    .map(OutputRecord::value)
                    .sorted()
                    .toList();
        }
        try (TestDriver driver = users(Kind.OUTER, false)) {
            TableChanges.put(driver, "cities", "u1", "Oslo");
            TableChanges.put(driver, "names", "u2", "Bob");
            TableChanges.put(driver, "names", "u1", "Ann");
            driver.commit();
            List<String> rightFirst = driver.output("joined", Serdes.String(), Serdes.String()).readAll().stream()
                    .map(OutputRecord::value)
                    .sorted()
                    .toList();
            assertEquals(List.of("Ann@Oslo", "Bob@null"), leftFirst);
            assertEquals(leftFirst, rightFirst);
        }
    }

    @Test
    void changesAreCoalescedToOnePerKeyAndCommitUnlessEveryChangeIsAskedFor() {
        try (TestDriver driver = users(Kind.INNER, false)) {
            TestOutputTopic<String, String> out = driver.output("joined", Serdes.String(), Serdes.String());
            TableChanges.put(driver, "names", "u1", "Ann");
            TableChanges.put(driver, "cities", "u1", "Oslo");
            driver.commit();
            TableChanges.read(out);
            TableChanges.put(driver, "cities", "u1", "Rome");
            TableChanges.put(driver, "names", "u1", "Anna");
            TableChanges.put(driver, "cities", "u1", "Paris");
            driver.commit();
            assertEquals(List.of("u1-=Ann@Oslo", "u1=Anna@Paris"), TableChanges.read(out));
            TableChanges.put(driver, "cities", "u1", "Rome");
            TableChanges.put(driver, "cities", "u1", "Paris");
            driver.commit();
            assertEquals(List.of(), TableChanges.read(out), "back where it was at the last commit");
        }
    }

    @Test
    void theResultSurvivesARestartAndCanBeJoinedAgain() {
        StreamsBuilder builder = new StreamsBuilder();
        Table<String, String> names = builder.table("names", Consumed.with(Serdes.String(), Serdes.String()));
        Table<String, String> cities = builder.table("cities", Consumed.with(Serdes.String(), Serdes.String()));
        Table<String, String> users = names.join(cities, (n, c) -> n + "@" + c);
        builder.stream("visits", Consumed.with(Serdes.String(), Serdes.String()))
                .join(users, (page, user) -> user + " visited " + page)
                .to("visited", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build(), TestDriverConfig.defaults())) {
            TableChanges.put(driver, "names", "u1", "Ann");
            TableChanges.put(driver, "cities", "u1", "Oslo");
            driver.restart();
            TestInputTopic<String, String> visits = driver.input("visits", Serdes.String(), Serdes.String());
            visits.pipe("u1", "/home");
            visits.pipe("u2", "/away");
            assertEquals(
                    List.of("Ann@Oslo visited /home"),
                    driver.output("visited", Serdes.String(), Serdes.String()).readValues());
        }
    }

    @Test
    void aMaterializedTheJoinCannotHonourIsRefused() {
        StreamsBuilder builder = new StreamsBuilder();
        Table<String, String> names = builder.table("names", Consumed.with(Serdes.String(), Serdes.String()));
        Table<String, String> cities = builder.table("cities", Consumed.with(Serdes.String(), Serdes.String()));
        for (Materialized<String, String> refused : Arrays.asList(
                Materialized.<String, String>as("j").withValueSerde(Serdes.String()),
                Materialized.<String, String>as("j").withTimeToLive(Duration.ofDays(1)))) {
            IllegalStateException e =
                    assertThrows(IllegalStateException.class, () -> names.join(cities, (n, c) -> n + c, refused));
            assertTrue(e.getMessage().contains("store 'j'"), e.getMessage());
        }
    }
}
