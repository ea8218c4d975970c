package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.dsl.SessionWindows;
import io.weir.streams.dsl.Trigger;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.dsl.WindowedStream;
import io.weir.streams.dsl.WindowedTable;
import io.weir.streams.dsl.Windows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.test.ValueAndTimestamp;
import io.weir.streams.time.Windowed;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A windowed aggregation's results as a table ({@code WindowedTable.toTable()}), one test per rule: each
 * pane upserts its window's row; a session a merge replaced is deleted (a tombstone downstream); a
 * re-grouping takes each window's previous value back before adding the next, however many panes a
 * window emits; a closed window's row leaves the store without a change downstream; discarding panes are
 * refused at build time.
 */
class WindowedTableTest {

    private static final Duration TEN_SECONDS = Duration.ofSeconds(10);

    /** "clicks" (user -> page) counted per user and window, {@code windowed} applied, as a table into "rows". */
    private static TestDriver clicks(
            Windows windows, Function<WindowedStream<String, String>, WindowedStream<String, String>> windowed) {
        StreamsBuilder builder = new StreamsBuilder();
        WindowedTable<String, Long> counts = windowed.apply(
                        builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                                .groupByKey()
                                .windowedBy(windows))
                .count(Materialized.as("counts"));
        counts.toTable(Materialized.as("count-rows"))
                .toStream()
                .to("rows", Produced.with(WindowedSerdes.string(), Serdes.Long()));
        return new TestDriver(builder.build(), TestDriverConfig.defaults().withCommitInterval(Duration.ofDays(1)));
    }

    private static void click(TestDriver driver, String user, long time) {
        driver.input("clicks", Serdes.String(), Serdes.String())
                .pipe(TestRecord.of(user, "p").at(time));
    }

    private static TestOutputTopic<Windowed<String>, Long> rows(TestDriver driver) {
        return driver.output("rows", WindowedSerdes.string(), Serdes.Long());
    }

    /** The table's changes since the last read: "user[start,end)=count", a delete "...=null". */
    private static List<String> changes(TestOutputTopic<Windowed<String>, Long> rows) {
        List<String> out = new ArrayList<>();
        for (OutputRecord<Windowed<String>, Long> r : rows.readAll()) {
            out.add(r.key().key() + r.key().window() + "=" + r.value());
        }
        return out;
    }

    @Test
    void eachPaneUpsertsItsWindowsRow() {
        Windows windows = TumblingWindows.of(TEN_SECONDS).withAllowedLateness(TEN_SECONDS);
        try (TestDriver driver =
                clicks(windows, w -> w.withTrigger(Trigger.onTime().withLateFiringsPerRecord()))) {
            TestOutputTopic<Windowed<String>, Long> rows = rows(driver);
            click(driver, "ann", 1_000);
            click(driver, "ann", 2_000);
            click(driver, "bob", 12_000);
            driver.commit();
            assertEquals(List.of("ann[0, 10000)=2"), changes(rows), "the on-time pane of ann's window");
            click(driver, "ann", 3_000);
            driver.commit();
            assertEquals(List.of("ann[0, 10000)=3"), changes(rows), "the late pane replaces the row");
            Map<Windowed<String>, ValueAndTimestamp<Long>> table = driver.timestampedTable("count-rows");
            assertEquals(
                    new ValueAndTimestamp<>(3L, 9_999),
                    table.get(new Windowed<>("ann", new io.weir.streams.time.Window(0, 10_000))),
                    "stamped like its pane: the window's last instant");
        }
    }

    @Test
    void aSessionThatAMergeReplacedIsDeleted() {
        Windows sessions = SessionWindows.withGap(Duration.ofSeconds(5)).withAllowedLateness(Duration.ofSeconds(60));
        try (TestDriver driver = clicks(sessions, w -> w)) {
            TestOutputTopic<Windowed<String>, Long> rows = rows(driver);
            click(driver, "ann", 0);
            click(driver, "ann", 8_000);
            click(driver, "bob", 20_000);
            driver.commit();
            assertEquals(List.of("ann[0, 5000)=1", "ann[8000, 13000)=1"), changes(rows));
            // Late, within the lateness: bridges both sessions into one.
            click(driver, "ann", 4_000);
            driver.commit();
            List<String> bridged = changes(rows);
            bridged.sort(null);
            assertEquals(List.of("ann[0, 13000)=3", "ann[0, 5000)=null", "ann[8000, 13000)=null"), bridged);
            Map<Windowed<String>, Long> table = driver.table("count-rows");
            assertEquals(1, table.size(), table.toString());
        }
    }

    @Test
    void aReGroupingTakesEachWindowsPreviousValueBackBeforeAddingTheNext() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .windowedBy(TumblingWindows.of(TEN_SECONDS))
                .withTrigger(Trigger.afterCount(1))
                .count(Materialized.as("counts"))
                .toTable()
                // The top user per window: the user with the most clicks, as "user:count".
                .groupBy(
                        (userWindow, count) ->
                                KeyValue.pair(userWindow.window().start(), userWindow.key() + ":" + count),
                        io.weir.streams.dsl.Grouped.with(Serdes.Long(), Serdes.String()))
                .aggregate(
                        () -> "",
                        (window, userCount, all) -> all + "|" + userCount,
                        (window, userCount, all) -> all.replace("|" + userCount, ""),
                        Materialized.<Long, String>as("clicks-per-window").withValueSerde(Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build())) {
            for (String user : List.of("ann", "bob", "ann", "ann", "bob", "cid")) {
                click(driver, user, 1_000);
                driver.commit();
            }
            click(driver, "ann", 11_000);
            driver.commit();
            driver.commit();
            Map<Long, String> perWindow = driver.table("clicks-per-window");
            // Every pane of every user's window arrived (afterCount(1)); each replaced the one before.
            List<String> first =
                    new ArrayList<>(List.of(perWindow.get(0L).substring(1).split("\\|")));
            first.sort(null);
            assertEquals(List.of("ann:3", "bob:2", "cid:1"), first);
            assertEquals("|ann:1", perWindow.get(10_000L));
        }
    }

    @Test
    void aClosedWindowsRowLeavesTheStoreWithoutAChangeDownstream() {
        try (TestDriver driver = clicks(TumblingWindows.of(TEN_SECONDS), w -> w)) {
            TestOutputTopic<Windowed<String>, Long> rows = rows(driver);
            click(driver, "ann", 1_000);
            click(driver, "bob", 12_000);
            driver.commit();
            assertEquals(List.of("ann[0, 10000)=1"), changes(rows));
            assertTrue(driver.table("count-rows").isEmpty(), "the window closed at 9 999: its row is gone");
            click(driver, "bob", 25_000);
            driver.commit();
            assertEquals(List.of("bob[10000, 20000)=1"), changes(rows), "no delete for ann's closed window");
        }
    }

    @Test
    void discardingPanesAndSettingsThatDoNotApplyAreRefusedAtBuildTime() {
        StreamsBuilder builder = new StreamsBuilder();
        WindowedStream<String, String> windowed = builder.stream(
                        "clicks", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .windowedBy(TumblingWindows.of(TEN_SECONDS));
        WindowedTable<String, Long> deltas = windowed.withTrigger(Trigger.afterCount(1))
                .withRefinement(Refinement.DISCARDING)
                .count(Materialized.as("deltas"));
        IllegalStateException discarding = assertThrows(IllegalStateException.class, deltas::toTable);
        assertTrue(discarding.getMessage().contains("DISCARDING"), discarding.getMessage());
        WindowedTable<String, Long> counts = windowed.count(Materialized.as("counts"));
        IllegalStateException ttl = assertThrows(
                IllegalStateException.class,
                () -> counts.toTable(
                        Materialized.<Windowed<String>, Long>as("rows").withTimeToLive(TEN_SECONDS)));
        assertTrue(ttl.getMessage().contains("withTimeToLive"), ttl.getMessage());
    }
}
