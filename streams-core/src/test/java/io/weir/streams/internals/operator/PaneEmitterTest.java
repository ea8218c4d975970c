package io.weir.streams.internals.operator;

import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.testing.RecordingContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How panes travel, one test per rule: the refinement decides retractions, headers carry the pane, counters count. */
class PaneEmitterTest {

    @TempDir
    Path dir;

    private RecordingContext context;

    private PaneEmitter<String, Long> emitter(Refinement refinement) {
        context = new RecordingContext(dir);
        return new PaneEmitter<>(refinement, context);
    }

    @AfterEach
    void close() {
        context.close();
    }

    private List<String> forwarded() {
        return context.<String, Long>forwarded().stream()
                .map(PaneEmitterTest::describe)
                .toList();
    }

    private static String describe(Record<String, Long> r) {
        PaneInfo pane = PaneInfo.from(r.headers()).orElseThrow();
        return (pane.isRetraction() ? "-" : "") + r.key() + "=" + r.value() + " " + pane.timing() + "#" + pane.index()
                + (pane.isFinal() ? " final" : "") + " @" + r.timestamp();
    }

    @Test
    void accumulatingPanesCarryTheValueAndNoRetraction() {
        PaneEmitter<String, Long> panes = emitter(Refinement.ACCUMULATING);
        panes.emit("k", null, 3L, 59_999, new PaneInfo(PaneInfo.Timing.EARLY, 0, false));
        panes.emit("k", 3L, 5L, 59_999, new PaneInfo(PaneInfo.Timing.ON_TIME, 1, true));
        assertEquals(List.of("k=3 EARLY#0 @59999", "k=5 ON_TIME#1 final @59999"), forwarded());
        assertFalse(panes.discards());
        assertFalse(panes.retracts());
    }

    @Test
    void retractingPanesAfterTheFirstComeAfterARetractionOfThePreviousValueWithTheirOwnPaneInfo() {
        PaneEmitter<String, Long> panes = emitter(Refinement.ACCUMULATING_AND_RETRACTING);
        panes.emit("k", null, 3L, 59_999, new PaneInfo(PaneInfo.Timing.EARLY, 0, false));
        panes.emit("k", 3L, 5L, 59_999, new PaneInfo(PaneInfo.Timing.ON_TIME, 1, true));
        assertEquals(
                List.of("k=3 EARLY#0 @59999", "-k=3 ON_TIME#1 final @59999", "k=5 ON_TIME#1 final @59999"),
                forwarded());
        assertTrue(panes.retracts());
        assertEquals(1, context.metric(WeirMetrics.RETRACTIONS));
        assertEquals(2, context.metric(WeirMetrics.PANES_EMITTED), "a retraction is not a pane");
    }

    @Test
    void discardingPanesSayTheStateRestartsAfterEachPane() {
        PaneEmitter<String, Long> panes = emitter(Refinement.DISCARDING);
        panes.emit("k", 3L, 2L, 59_999, new PaneInfo(PaneInfo.Timing.ON_TIME, 1, false));
        assertTrue(panes.discards());
        assertEquals(List.of("k=2 ON_TIME#1 @59999"), forwarded(), "no retraction when discarding");
    }

    @Test
    void aRetractionAloneEndsAResultWithoutReplacingIt() {
        PaneEmitter<String, Long> panes = emitter(Refinement.ACCUMULATING_AND_RETRACTING);
        panes.retract("k", 4L, 9_999, new PaneInfo(PaneInfo.Timing.LATE, 2, true, true));
        assertEquals(List.of("-k=4 LATE#2 final @9999"), forwarded());
        assertEquals(0, context.metric(WeirMetrics.PANES_EMITTED));
        assertEquals(0, context.commitRequests(), "the pane that follows asks for the commit");
    }

    @Test
    void panesAreCountedByTimingAndEachAsksForACommit() {
        PaneEmitter<String, Long> panes = emitter(Refinement.ACCUMULATING);
        panes.emit("a", null, 1L, 1, new PaneInfo(PaneInfo.Timing.EARLY, 0, false));
        panes.emit("a", 1L, 2L, 1, new PaneInfo(PaneInfo.Timing.ON_TIME, 1, false));
        panes.emit("a", 2L, 3L, 1, new PaneInfo(PaneInfo.Timing.LATE, 2, false));
        panes.emit("b", null, 1L, 1, new PaneInfo(PaneInfo.Timing.LATE, 0, true));
        assertEquals(4, context.metric(WeirMetrics.PANES_EMITTED));
        assertEquals(1, context.metric(WeirMetrics.EARLY_PANES));
        assertEquals(1, context.metric(WeirMetrics.ON_TIME_PANES));
        assertEquals(2, context.metric(WeirMetrics.LATE_PANES));
        assertEquals(4, context.commitRequests());
    }
}
