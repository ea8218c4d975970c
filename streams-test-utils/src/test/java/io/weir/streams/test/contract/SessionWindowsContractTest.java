package io.weir.streams.test.contract;

import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.LateRecord;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.dsl.SessionWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.StoreType;
import io.weir.streams.state.WindowEntry;
import io.weir.streams.time.Window;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.weir.streams.test.contract.PaneFixture.ms;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Session windows on hand-drawn timelines (gap 5 s unless said): a record at {@code t} opens
 * {@code [t, t + 5000)}; overlapping sessions of a key merge.
 */
class SessionWindowsContractTest {

    private static final SessionWindows FIVE_SECONDS = SessionWindows.withGap(ms(5_000));

    @ParameterizedTest
    @EnumSource(StoreType.class)
    void recordsWithinTheGapFormOneSessionThatFiresWhenTheWatermarkPassesItsEnd(StoreType type) {
        try (PaneFixture f = PaneFixture.of(FIVE_SECONDS, w -> w, type)) {
            f.pipe("a", 0, 1, 0);
            f.pipe("a", 3_000, 1, 0);
            f.pipe("b", 7_999, 1, 0);
            assertEquals(List.of(), f.panes(), "W = 7 998: the session [0, 8000) is still open");
            f.pipe("b", 8_000, 1, 0);
            assertEquals(List.of("a[0,8000) 2 ON_TIME#0 final"), f.panes());
            f.pipe("a", 20_000, 1, 0);
            f.driver.endOfInput();
            assertEquals(List.of("b[7999,13000) 2 ON_TIME#0 final", "a[20000,25000) 1 ON_TIME#0 final"), f.panes());
        }
    }

    @Test
    void recordsExactlyAGapApartShareASessionOneMillisecondMoreDoesNot() {
        try (PaneFixture f = PaneFixture.of(FIVE_SECONDS, w -> w)) {
            f.pipe("a", 0, 1, 0);
            f.pipe("b", 0, 1, 0);
            f.pipe("a", 5_000, 1, 0);
            f.pipe("b", 5_001, 1, 0);
            f.driver.endOfInput();
            assertEquals(
                    List.of(
                            "a[0,10000) 2 ON_TIME#0 final",
                            "b[0,5000) 1 ON_TIME#0 final",
                            "b[5001,10001) 1 ON_TIME#0 final"),
                    f.panes().stream().sorted().toList());
        }
    }

    /**
     * The bridge timeline, under {@code refinement}: the panes when both sessions fire on time, then
     * the panes the bridging record brings.
     * <pre>
     *   a@0 ------[0,5000)        a@8000 ------[8000,13000)      on time: both fire
     *              late a@4000 --[4000,9000)-- overlaps both: one session [0,13000)
     * </pre>
     */
    private static List<List<String>> bridge(Refinement refinement, StoreType type) {
        try (PaneFixture f =
                PaneFixture.of(FIVE_SECONDS.withAllowedLateness(ms(60_000)), w -> w.withRefinement(refinement), type)) {
            f.pipe("a", 0, 1, 0);
            f.pipe("a", 8_000, 2, 0);
            f.pipe("b", 20_000, 0, 0);
            List<String> onTime = f.panes();
            f.pipe("a", 4_000, 4, 0);
            List<String> bridged = f.panes();
            assertEquals(1, f.driver.metrics().get("sums", WeirMetrics.SESSIONS_MERGED));
            // Discarding: the merged session emitted everything it held, so it holds nothing (reduce's null).
            Long merged = refinement == Refinement.DISCARDING ? null : 7L;
            assertEquals(
                    List.of(
                            new WindowEntry<>("a", new Window(0, 13_000), merged),
                            new WindowEntry<>("b", new Window(20_000, 25_000), 0L)),
                    f.driver.windowStore("sums", Serdes.String(), Serdes.Long()));
            return List.of(onTime, bridged);
        }
    }

    @ParameterizedTest
    @EnumSource(StoreType.class)
    void aLateRecordThatBridgesTwoSessionsMergesThemAndRetractsTheirPanes(StoreType type) {
        assertEquals(
                List.of(
                        List.of("a[0,5000) 1 ON_TIME#0", "a[8000,13000) 2 ON_TIME#0"),
                        List.of(
                                "a[0,5000) 1 LATE#1 final retraction",
                                "a[8000,13000) 2 LATE#1 final retraction",
                                "a[0,13000) 7 LATE#0")),
                bridge(Refinement.ACCUMULATING_AND_RETRACTING, type));
    }

    @Test
    void underAccumulatingRefinementTheMergedSessionSimplyGetsItsOwnPane() {
        assertEquals(
                List.of("a[0,13000) 7 LATE#0"),
                bridge(Refinement.ACCUMULATING, StoreType.IN_MEMORY).get(1));
    }

    @Test
    void underDiscardingRefinementTheMergedSessionCarriesOnlyWhatItsPartsHadNotEmitted() {
        assertEquals(
                List.of("a[0,13000) 4 LATE#0"),
                bridge(Refinement.DISCARDING, StoreType.IN_MEMORY).get(1),
                "1 + 2 were emitted already: the sum of all panes is 7");
    }

    @Test
    void aLateRecordThatExtendsASessionPastTheWatermarkMakesANewOnTimeSession() {
        try (PaneFixture f = PaneFixture.of(
                FIVE_SECONDS.withAllowedLateness(ms(10_000)),
                w -> w.withRefinement(Refinement.ACCUMULATING_AND_RETRACTING))) {
            f.pipe("a", 0, 1, 0);
            f.pipe("b", 6_000, 0, 0);
            assertEquals(List.of("a[0,5000) 1 ON_TIME#0"), f.panes());
            f.pipe("a", 3_000, 1, 0);
            assertEquals(
                    List.of("a[0,5000) 1 LATE#1 final retraction"),
                    f.panes(),
                    "W = 5 999 < 7 999: the extended session [0, 8000) is not late yet");
            assertEquals(0, f.driver.metrics().get("sums", WeirMetrics.LATE_RECORDS_ADDED));
            f.pipe("b", 8_000, 0, 0);
            assertEquals(List.of("a[0,8000) 2 ON_TIME#0"), f.panes());
        }
    }

    @Test
    void aRecordTooLateForTheSessionItWouldJoinIsDropped() {
        try (PaneFixture f = PaneFixture.of(FIVE_SECONDS, w -> w.lateRecordsTo("late"))) {
            f.pipe("a", 0, 1, 0);
            f.pipe("b", 10_000, 1, 0);
            assertEquals(List.of("a[0,5000) 1 ON_TIME#0 final"), f.panes());
            f.pipe("a", 1_000, 1, 0);
            assertEquals(List.of(), f.panes());
            assertEquals(1, f.driver.metrics().get("sums", WeirMetrics.LATE_RECORDS_DROPPED));
            var late = f.driver.output("late", Serdes.String(), Serdes.Long()).readAll();
            assertEquals(1, late.size());
            assertEquals("1000", late.get(0).header(LateRecord.WINDOW_START_HEADER));
            assertEquals("6000", late.get(0).header(LateRecord.WINDOW_END_HEADER));
        }
    }

    /**
     * A key that never pauses (a record every second, gap 2 s) with sessions capped at 10 s: when a
     * record would stretch a session beyond 10 s, that session is sealed and the record starts a new one.
     */
    @ParameterizedTest
    @EnumSource(StoreType.class)
    void aSessionThatNeverPausesIsCutAtTheMaximumLength(StoreType type) {
        SessionWindows capped = SessionWindows.withGap(ms(2_000)).withMaxSessionLength(ms(10_000));
        try (PaneFixture f = PaneFixture.of(capped, w -> w, type)) {
            for (long t = 0; t <= 20_000; t += 1_000) {
                f.pipe("a", t, 1, 0);
            }
            f.driver.endOfInput();
            Map<String, Long> sessions = new LinkedHashMap<>();
            f.records().forEach(r -> sessions.put(r.key().window().toString(), r.value()));
            assertEquals(
                    Map.of("[0, 10000)", 9L, "[9000, 19000)", 9L, "[18000, 22000)", 3L),
                    sessions,
                    "0..8 s, then 9..17 s, then 18..20 s; no session longer than 10 s");
        }
    }

    /**
     * With the cap at the gap, every extension seals: a@500 seals [0, 2000) and opens [500, 2500);
     * a@0 then seals [500, 2500) and would open [0, 2000) — the sealed session's very window, which
     * takes the record instead of a second session with the same window.
     */
    @ParameterizedTest
    @EnumSource(StoreType.class)
    void aRecordWhoseSessionIsExactlyASealedOneJoinsIt(StoreType type) {
        SessionWindows capped = SessionWindows.withGap(ms(2_000)).withMaxSessionLength(ms(2_000));
        try (PaneFixture f = PaneFixture.of(capped, w -> w, type)) {
            f.pipe("a", 0, 1, 0);
            f.pipe("a", 500, 2, 0);
            f.pipe("a", 0, 4, 0);
            f.driver.endOfInput();
            assertEquals(List.of("a[0,2000) 5 ON_TIME#0 final", "a[500,2500) 2 ON_TIME#0 final"), f.panes());
            assertEquals(0, f.driver.metrics().get("sums", WeirMetrics.OPEN_WINDOWS));
        }
    }
}
