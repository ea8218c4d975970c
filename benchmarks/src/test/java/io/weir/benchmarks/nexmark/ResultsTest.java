package io.weir.benchmarks.nexmark;

import io.weir.benchmarks.runtime.WrongOutput;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How an output is compared with its reference, one rule per shape: a fast and wrong run must fail. */
class ResultsTest {

    @Test
    void anAppendedOutputMustHoldEveryResultAsOftenAsTheReference() {
        Results expected = results(OutputShape.APPEND, 1L, "a", 1L, "a", 2L, "b");
        Results once = results(OutputShape.APPEND, 1L, "a", 2L, "b", 3L, "c");

        assertTrue(once.reached(expected), "as many records: the reader stops and checks");
        WrongOutput e = assertThrows(WrongOutput.class, () -> once.check(expected, "once"));
        assertTrue(e.getMessage().contains("1 missing, e.g. [1 -> a]"), e.getMessage());
        assertDoesNotThrow(
                () -> results(OutputShape.APPEND, 2L, "b", 1L, "a", 1L, "a").check(expected, "reordered"));
    }

    @Test
    void anUpsertedOutputIsComparedByTheLastRowOfEachKeyATombstoneDeleting() {
        Results expected = results(OutputShape.UPSERT, 1L, "final");
        Results updated = results(OutputShape.UPSERT, 1L, "first", 2L, "gone", 1L, "final", 2L, null);

        assertTrue(updated.reached(expected));
        assertDoesNotThrow(() -> updated.check(expected, "updated"));
        Results stale = results(OutputShape.UPSERT, 1L, "final", 1L, "first");
        assertFalse(stale.reached(expected));
        assertThrows(WrongOutput.class, () -> stale.check(expected, "stale"));
    }

    @Test
    void aSummedOutputNeedsEachKeysAmountsToAddUpWhateverTheSplit() {
        Results expected = results(OutputShape.SUMMED, 7L, 5L, 8L, 1L);
        Results split = results(
                OutputShape.SUMMED, 7L, new long[] {2, 0, 10}, 8L, new long[] {1, 0, 10}, 7L, new long[] {3, 10, 20});

        assertTrue(split.reached(expected));
        assertDoesNotThrow(() -> split.check(expected, "split"));
        Results short1 = results(OutputShape.SUMMED, 7L, new long[] {4, 0, 10}, 8L, new long[] {1, 0, 10});
        assertFalse(short1.reached(expected));
        assertThrows(WrongOutput.class, () -> short1.check(expected, "one bid short"));
        assertThrows(IllegalArgumentException.class, () -> results(OutputShape.SUMMED, 7L, "five"));
    }

    private static Results results(OutputShape shape, Object... keysAndValues) {
        Results results = new Results(shape);
        for (int i = 0; i < keysAndValues.length; i += 2) {
            results.add(keysAndValues[i], keysAndValues[i + 1]);
        }
        return results;
    }
}
