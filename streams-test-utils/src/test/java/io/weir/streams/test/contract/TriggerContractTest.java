package io.weir.streams.test.contract;

import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.GlobalWindows;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.dsl.Trigger;
import io.weir.streams.dsl.TumblingWindows;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.weir.streams.test.contract.PaneFixture.ms;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One test per trigger rule (docs/concepts/triggers-and-refinement.md). Windows are 10 s tumbling
 * windows summing the values; event time and processing time are plain milliseconds.
 */
class TriggerContractTest {

    private static final TumblingWindows TEN_SECONDS = TumblingWindows.of(ms(10_000));

    @Test
    void onTime_isTheDefaultAndFiresOncePerWindowWhenTheWatermarkPassesItsEnd() {
        try (PaneFixture f = PaneFixture.of(TEN_SECONDS, w -> w)) {
            f.pipe("a", 1_000, 1, 0);
            f.pipe("a", 2_000, 2, 0);
            f.advanceTimeTo(60_000);
            assertEquals(List.of(), f.panes(), "no pane before the watermark reaches the end, however long it waits");
            f.pipe("a", 10_000, 4, 60_000);
            assertEquals(List.of("a[0,10000) 3 ON_TIME#0 final"), f.panes());
        }
    }

    @Test
    void earlyFirings_emitAtEachTickOnlyForWindowsThatChangedSinceTheirLastPane() {
        try (PaneFixture f =
                PaneFixture.of(TEN_SECONDS, w -> w.withTrigger(Trigger.onTime().withEarlyFirings(ms(1_000))))) {
            f.pipe("a", 1_000, 1, 100);
            f.pipe("b", 1_500, 5, 200);
            assertEquals(List.of(), f.panes(), "nothing before the first tick");
            f.advanceTimeTo(1_000);
            assertEquals(List.of("a[0,10000) 1 EARLY#0", "b[0,10000) 5 EARLY#0"), f.panes());
            f.advanceTimeTo(2_000);
            assertEquals(List.of(), f.panes(), "no window changed since its pane");
            f.pipe("a", 3_000, 2, 2_100);
            f.advanceTimeTo(2_999);
            assertEquals(List.of(), f.panes(), "ticks are multiples of the interval");
            f.advanceTimeTo(3_000);
            assertEquals(List.of("a[0,10000) 3 EARLY#1"), f.panes(), "only the window that changed");
        }
    }

    @Test
    void onTime_afterEarlyPanesFiresOnlyIfTheWindowChangedSinceTheLastOne() {
        try (PaneFixture f =
                PaneFixture.of(TEN_SECONDS, w -> w.withTrigger(Trigger.onTime().withEarlyFirings(ms(1_000))))) {
            f.pipe("a", 1_000, 1, 0);
            f.pipe("b", 1_000, 5, 0);
            f.advanceTimeTo(1_000);
            assertEquals(2, f.panes().size());
            f.pipe("b", 2_000, 1, 1_100);
            f.pipe("c", 12_000, 7, 1_200);
            assertEquals(
                    List.of("b[0,10000) 6 ON_TIME#1 final"),
                    f.panes(),
                    "a's EARLY pane already holds its value; b changed since");
        }
    }

    @Test
    void earlyFirings_stopOnceTheWatermarkPassesTheWindowsEnd() {
        try (PaneFixture f = PaneFixture.of(
                TumblingWindows.of(ms(10_000)).withAllowedLateness(ms(60_000)),
                w -> w.withTrigger(Trigger.onTime().withEarlyFirings(ms(1_000))))) {
            f.pipe("a", 1_000, 1, 0);
            f.pipe("a", 2_000, 1, 500);
            f.pipe("b", 12_000, 1, 600);
            assertEquals(List.of("a[0,10000) 2 ON_TIME#0"), f.panes());
            f.pipe("a", 3_000, 1, 700);
            f.advanceTimeTo(1_000);
            assertEquals(
                    List.of("a[0,10000) 3 LATE#1", "b[10000,20000) 1 EARLY#0"),
                    f.panes(),
                    "the late record fired LATE at once: the tick has only b's open window left");
        }
    }

    @Test
    void afterCount_firesAnEarlyPaneEachTimeAWindowTookNRecords() {
        try (PaneFixture f = PaneFixture.of(TEN_SECONDS, w -> w.withTrigger(Trigger.afterCount(2)))) {
            f.pipe("a", 1_000, 1, 0);
            assertEquals(List.of(), f.panes());
            f.pipe("a", 2_000, 1, 0);
            assertEquals(List.of("a[0,10000) 2 EARLY#0"), f.panes());
            f.pipe("a", 3_000, 1, 0);
            f.pipe("a", 4_000, 1, 0);
            f.pipe("a", 5_000, 1, 0);
            assertEquals(List.of("a[0,10000) 4 EARLY#1"), f.panes());
            f.pipe("a", 10_000, 1, 0);
            assertEquals(List.of("a[0,10000) 5 ON_TIME#2 final"), f.panes());
        }
    }

    @Test
    void lateFirings_arePerLateRecordByDefault() {
        try (PaneFixture f = PaneFixture.of(TumblingWindows.of(ms(10_000)).withAllowedLateness(ms(60_000)), w -> w)) {
            f.pipe("a", 1_000, 1, 0);
            f.pipe("a", 15_000, 1, 0);
            f.pipe("a", 2_000, 1, 0);
            f.pipe("a", 3_000, 1, 0);
            assertEquals(List.of("a[0,10000) 1 ON_TIME#0", "a[0,10000) 2 LATE#1", "a[0,10000) 3 LATE#2"), f.panes());
        }
    }

    @Test
    void lateFirings_withAnIntervalEmitAtMostOncePerTickAndWhatRemainsWhenTheWindowCloses() {
        try (PaneFixture f = PaneFixture.of(
                TumblingWindows.of(ms(10_000)).withAllowedLateness(ms(20_000)),
                w -> w.withTrigger(Trigger.onTime().withLateFirings(ms(5_000))))) {
            f.pipe("a", 1_000, 1, 0);
            f.pipe("a", 15_000, 1, 0);
            assertEquals(List.of("a[0,10000) 1 ON_TIME#0"), f.panes());
            f.pipe("a", 2_000, 1, 1_000);
            f.pipe("a", 3_000, 1, 2_000);
            f.pipe("a", 4_000, 1, 3_000);
            assertEquals(List.of(), f.panes(), "late records wait for the tick");
            f.advanceTimeTo(5_000);
            assertEquals(List.of("a[0,10000) 4 LATE#1"), f.panes(), "three late records, one pane");
            f.pipe("a", 5_000, 1, 6_000);
            f.pipe("b", 30_000, 1, 6_500);
            assertEquals(
                    List.of("a[10000,20000) 1 ON_TIME#0", "a[0,10000) 5 LATE#2 final"),
                    f.panes(),
                    "the window closed (W = 29 999 = 9 999 + 20 000) before the tick: its last change goes out, final");
            f.advanceTimeTo(10_000);
            assertEquals(List.of(), f.panes());
        }
    }

    @Test
    void atWindowClose_emitsOneFinalPanePerWindowThatIncludesTheLateRecords() {
        try (PaneFixture f = PaneFixture.of(
                TumblingWindows.of(ms(10_000)).withAllowedLateness(ms(5_000)), w -> w.finalResultsOnly())) {
            f.pipe("a", 1_000, 1, 0);
            f.pipe("a", 12_000, 1, 0);
            f.pipe("a", 2_000, 1, 0);
            assertEquals(List.of(), f.panes(), "no on-time or late pane");
            f.pipe("a", 14_999, 1, 0);
            assertEquals(List.of(), f.panes(), "W = 14 998: the window closes at 9 999 + 5 000");
            f.pipe("a", 15_000, 1, 0);
            assertEquals(List.of("a[0,10000) 2 ON_TIME#0 final"), f.panes());
            f.pipe("a", 3_000, 1, 0);
            assertEquals(List.of(), f.panes(), "too late: dropped");
            assertEquals(1, f.driver.metrics().get("sums", WeirMetrics.LATE_RECORDS_DROPPED));
        }
    }

    @Test
    void atWindowClose_withoutLatenessFiresWhenTheOnTimePaneWould() {
        try (PaneFixture f = PaneFixture.of(TEN_SECONDS, w -> w.withTrigger(Trigger.atWindowClose()))) {
            f.pipe("a", 1_000, 1, 0);
            f.pipe("a", 10_000, 1, 0);
            assertEquals(List.of("a[0,10000) 1 ON_TIME#0 final"), f.panes());
        }
    }

    @Test
    void globalWindows_withAfterCountFireEveryNRecordsStampedWithTheLatestEventTime() {
        try (PaneFixture f = PaneFixture.of(GlobalWindows.create(), w -> w.withTrigger(Trigger.afterCount(3)))) {
            for (int i = 1; i <= 7; i++) {
                f.pipe("a", i * 1_000L, 1, 0);
            }
            assertEquals(
                    List.of(
                            "a[" + Long.MIN_VALUE + "," + Long.MAX_VALUE + ") 3 EARLY#0",
                            "a[" + Long.MIN_VALUE + "," + Long.MAX_VALUE + ") 6 EARLY#1"),
                    f.panes());
            f.driver.endOfInput();
            assertEquals(
                    List.of("a[" + Long.MIN_VALUE + "," + Long.MAX_VALUE + ") 7 ON_TIME#2 final"),
                    f.panes(),
                    "the end of input ends the global window too");
        }
    }

    @Test
    void globalWindows_panesAreStampedWithTheirLatestEventTime() {
        try (PaneFixture f = PaneFixture.of(GlobalWindows.create(), w -> w.withTrigger(Trigger.afterCount(2)))) {
            f.pipe("a", 5_000, 1, 0);
            f.pipe("a", 3_000, 1, 0);
            f.driver.advanceTime(ms(1));
            var out = f.records();
            assertEquals(1, out.size());
            assertEquals(5_000, out.get(0).timestamp());
        }
    }

    @Test
    void globalWindows_aDiscardingPaneIsStampedWithTheLatestEventTimeOfItsOwnRecords() {
        try (PaneFixture f = PaneFixture.of(
                GlobalWindows.create(),
                w -> w.withTrigger(Trigger.afterCount(2)).withRefinement(Refinement.DISCARDING))) {
            f.pipe("a", 9_000, 1, 0);
            f.pipe("a", 3_000, 1, 0);
            f.pipe("a", 4_000, 1, 0);
            f.pipe("a", 2_000, 1, 0);
            var out = f.records();
            assertEquals(2, out.size());
            assertEquals(9_000, out.get(0).timestamp());
            assertEquals(4_000, out.get(1).timestamp(), "the second pane holds the records at 4 s and 2 s only");
        }
    }
}
