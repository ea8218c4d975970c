package io.weir.streams.test.contract;

import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.dsl.Trigger;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.StoreType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;

import static io.weir.streams.test.contract.PaneFixture.ms;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One test per refinement rule: the same timeline (a 10 s window summing values, an EARLY pane, an
 * ON_TIME pane, a LATE pane) under each refinement mode.
 */
class RefinementContractTest {

    /** 3 arrives, early tick; 2 arrives, on time; 4 arrives late. */
    private static List<String> timeline(Refinement refinement, StoreType type) {
        try (PaneFixture f = PaneFixture.of(
                TumblingWindows.of(ms(10_000)).withAllowedLateness(ms(60_000)),
                w -> w.withTrigger(Trigger.onTime().withEarlyFirings(ms(1_000))).withRefinement(refinement),
                type)) {
            f.pipe("a", 1_000, 3, 0);
            f.advanceTimeTo(1_000);
            f.pipe("a", 2_000, 2, 1_100);
            f.pipe("b", 12_000, 0, 1_200);
            f.pipe("a", 3_000, 4, 1_300);
            f.driver.endOfInput();
            return f.panes().stream().filter(p -> p.startsWith("a")).toList();
        }
    }

    @ParameterizedTest
    @EnumSource(StoreType.class)
    void accumulating_eachPaneHoldsTheFullValue(StoreType type) {
        assertEquals(
                List.of("a[0,10000) 3 EARLY#0", "a[0,10000) 5 ON_TIME#1", "a[0,10000) 9 LATE#2"),
                timeline(Refinement.ACCUMULATING, type));
    }

    @ParameterizedTest
    @EnumSource(StoreType.class)
    void discarding_eachPaneHoldsOnlyWhatArrivedSinceThePreviousOne(StoreType type) {
        assertEquals(
                List.of("a[0,10000) 3 EARLY#0", "a[0,10000) 2 ON_TIME#1", "a[0,10000) 4 LATE#2"),
                timeline(Refinement.DISCARDING, type));
    }

    @ParameterizedTest
    @EnumSource(StoreType.class)
    void retracting_eachPaneAfterTheFirstIsPrecededByARetractionOfThePreviousOne(StoreType type) {
        assertEquals(
                List.of(
                        "a[0,10000) 3 EARLY#0",
                        "a[0,10000) 3 ON_TIME#1 retraction",
                        "a[0,10000) 5 ON_TIME#1",
                        "a[0,10000) 5 LATE#2 retraction",
                        "a[0,10000) 9 LATE#2"),
                timeline(Refinement.ACCUMULATING_AND_RETRACTING, type));
    }

    @Test
    void retracting_aRetractionIsMarkedByItsHeaderAndCounted() {
        try (PaneFixture f = PaneFixture.of(
                TumblingWindows.of(ms(10_000)),
                w -> w.withTrigger(Trigger.afterCount(1)).withRefinement(Refinement.ACCUMULATING_AND_RETRACTING))) {
            f.pipe("a", 1_000, 3, 0);
            f.pipe("a", 2_000, 2, 0);
            var records = f.records();
            assertEquals(3, records.size());
            assertFalse(records.get(0).pane().orElseThrow().isRetraction());
            assertEquals(
                    null,
                    records.get(0).header(PaneInfo.RETRACTION_HEADER),
                    "regular panes carry no retraction header");
            assertEquals("true", records.get(1).header(PaneInfo.RETRACTION_HEADER));
            assertTrue(records.get(1).pane().orElseThrow().isRetraction());
            assertEquals(3L, records.get(1).value(), "a retraction carries the value it takes back");
            assertEquals(1, f.driver.metrics().get("sums", WeirMetrics.RETRACTIONS));
            assertEquals(2, f.driver.metrics().get("sums", WeirMetrics.PANES_EMITTED), "retractions are not panes");
            assertEquals(2, f.driver.metrics().get("sums", WeirMetrics.EARLY_PANES));
        }
    }

    @Test
    void discarding_theStoreHoldsOnlyTheUnemittedDelta() {
        try (PaneFixture f = PaneFixture.of(
                TumblingWindows.of(ms(10_000)),
                w -> w.withTrigger(Trigger.afterCount(2)).withRefinement(Refinement.DISCARDING))) {
            f.pipe("a", 1_000, 3, 0);
            f.pipe("a", 2_000, 2, 0);
            f.pipe("a", 3_000, 7, 0);
            assertEquals(List.of("a[0,10000) 5 EARLY#0"), f.panes());
            assertEquals(
                    7L,
                    f.driver
                            .windowStore("sums", Serdes.String(), Serdes.Long())
                            .get(0)
                            .value());
        }
    }
}
