package io.weir.streams.internals.window;

import io.weir.streams.internals.operator.Aggregation;
import io.weir.streams.time.Window;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tumbling, hopping and global windows: which windows hold a record, from its event time alone. */
class FixedWindowAssignerTest {

    private static final Aggregation<String, String, Long> COUNT = Aggregation.count();

    private static List<Window> windows(WindowAssigner<String, String, Long> assigner, long t) {
        List<WindowAssignment> assignments = assigner.assign("k", new byte[0], t);
        assignments.forEach(a -> {
            assertTrue(a.merged().isEmpty() && a.sealed().isEmpty(), "fixed windows never merge");
            assertTrue(a.mayExist());
        });
        return assignments.stream().map(WindowAssignment::window).toList();
    }

    @Test
    void aTumblingWindowIsTheOneEpochAlignedWindowHoldingTheRecord() {
        WindowAssigner<String, String, Long> tumbling = WindowAssigners.tumbling(60_000);
        assertEquals(List.of(new Window(60_000, 120_000)), windows(tumbling, 60_000));
        assertEquals(List.of(new Window(60_000, 120_000)), windows(tumbling, 119_999));
        assertEquals(List.of(new Window(-60_000, 0)), windows(tumbling, -1), "before the epoch too");
    }

    @Test
    void hoppingWindowsAreEveryAlignedWindowHoldingTheRecordOldestFirst() {
        WindowAssigner<String, String, Long> hopping = WindowAssigners.hopping(30_000, 10_000);
        assertEquals(
                List.of(new Window(-10_000, 20_000), new Window(0, 30_000), new Window(10_000, 40_000)),
                windows(hopping, 15_000));
        assertEquals(
                List.of(new Window(-10_000, 20_000), new Window(0, 30_000), new Window(10_000, 40_000)),
                windows(hopping, 10_000),
                "a window holds its start");
    }

    @Test
    void theGlobalWindowHoldsEveryRecord() {
        WindowAssigner<String, String, Long> global = WindowAssigners.global();
        assertEquals(List.of(new Window(Long.MIN_VALUE, Long.MAX_VALUE)), windows(global, Long.MIN_VALUE + 1));
        assertEquals(List.of(new Window(Long.MIN_VALUE, Long.MAX_VALUE)), windows(global, 42));
    }

    @Test
    void fixedWindowsStartFromTheAggregationsInitialValue() {
        assertEquals(0L, WindowAssigners.<String, String, Long>tumbling(10).initial("k", new Window(0, 10), COUNT));
        assertEquals(
                0L,
                WindowAssigners.<String, String, Long>global()
                        .initial("k", new Window(Long.MIN_VALUE, Long.MAX_VALUE), COUNT));
    }
}
