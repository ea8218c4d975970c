package io.weir.streams.internals.window;

import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Trigger;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When a change fires, one test per rule of {@link Trigger}; the windows are named by their store keys. */
class TriggerRunnerTest {

    private static final boolean EARLY = true;
    private static final boolean LATE = false;

    private final List<String> fired = new ArrayList<>();

    private static byte[] key(String name) {
        return name.getBytes(StandardCharsets.UTF_8);
    }

    private void tick(TriggerRunner runner, long now) {
        runner.onProcessingTime(
                now, (storeKey, timing) -> fired.add(new String(storeKey, StandardCharsets.UTF_8) + " " + timing));
    }

    @Test
    void theDefaultTriggerFiresEachLateChangeAtOnceAndNothingEarly() {
        TriggerRunner runner = new TriggerRunner(Trigger.onTime(), 0);
        assertFalse(runner.firesOnChange(key("w"), EARLY, 100));
        assertTrue(runner.firesOnChange(key("w"), LATE, 1));
        assertTrue(runner.firesOnTime());
        assertFalse(runner.firesAtClose(), "nothing is left for the close");
        tick(runner, 1_000_000);
        assertEquals(List.of(), fired);
    }

    @Test
    void aCountTriggerFiresAnEarlyPaneOnceTheWindowHasTakenThatManyRecordsSinceItsLast() {
        TriggerRunner runner = new TriggerRunner(Trigger.afterCount(3), 0);
        assertFalse(runner.firesOnChange(key("w"), EARLY, 2));
        assertTrue(runner.firesOnChange(key("w"), EARLY, 3));
    }

    @Test
    void anEarlyIntervalFiresEachChangedWindowOnceAtTheNextTickAlignedToTheInterval() {
        TriggerRunner runner = new TriggerRunner(Trigger.onTime().withEarlyFirings(Duration.ofSeconds(10)), 3_000);
        assertFalse(runner.firesOnChange(key("a"), EARLY, 1));
        assertFalse(runner.firesOnChange(key("b"), EARLY, 1));
        assertFalse(runner.firesOnChange(key("a"), EARLY, 2));
        tick(runner, 9_999);
        assertEquals(List.of(), fired, "the first tick is at 10 s, a multiple of the interval");
        tick(runner, 10_000);
        assertEquals(List.of("a EARLY", "b EARLY"), fired, "each noted window once, in the order first noted");
        tick(runner, 20_000);
        assertEquals(2, fired.size(), "notes are cleared at each tick");
    }

    @Test
    void aLateIntervalBatchesLateChangesAndLeavesWhatIsLeftForTheClose() {
        TriggerRunner runner = new TriggerRunner(Trigger.onTime().withLateFirings(Duration.ofSeconds(5)), 0);
        assertFalse(runner.firesOnChange(key("w"), LATE, 1));
        assertTrue(runner.firesAtClose());
        assertEquals(PaneInfo.Timing.LATE, runner.closeTiming());
        tick(runner, 5_000);
        assertEquals(List.of("w LATE"), fired);
    }

    @Test
    void atWindowCloseFiresNothingOnChangeNorOnTimeAndItsClosePaneIsOnTime() {
        TriggerRunner runner = new TriggerRunner(Trigger.atWindowClose(), 0);
        assertFalse(runner.firesOnChange(key("w"), EARLY, 1_000));
        assertFalse(runner.firesOnChange(key("w"), LATE, 1));
        assertFalse(runner.firesOnTime());
        assertTrue(runner.firesAtClose());
        assertEquals(PaneInfo.Timing.ON_TIME, runner.closeTiming());
    }

    @Test
    void aRestoredLateChangeIsFiredAtTheCloseAtTheLatestWhateverTheTrigger() {
        TriggerRunner runner = new TriggerRunner(Trigger.onTime(), 0);
        runner.restored(key("w"), LATE);
        assertTrue(runner.firesAtClose());
    }

    @Test
    void aRestoredEarlyChangeWaitsForTheNextEarlyTick() {
        TriggerRunner runner = new TriggerRunner(Trigger.onTime().withEarlyFirings(Duration.ofSeconds(1)), 0);
        runner.restored(key("w"), EARLY);
        assertFalse(runner.firesAtClose());
        tick(runner, 1_000);
        assertEquals(List.of("w EARLY"), fired);
    }
}
