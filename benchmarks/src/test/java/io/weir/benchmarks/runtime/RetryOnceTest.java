package io.weir.benchmarks.runtime;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A benchmark step that fails is run once more under its next attempt number, and the report says so. */
class RetryOnceTest {

    @Test
    void aStepThatSucceedsIsRunOnceAndNotReported() throws Exception {
        RetryOnce retry = new RetryOnce();
        assertEquals("a1", retry.run("load", attempt -> "a" + attempt));
        assertEquals("", retry.report());
    }

    @Test
    void aFailedStepIsRetriedOnceUnderItsNextAttemptAndReported() throws Exception {
        RetryOnce retry = new RetryOnce();
        List<Integer> attempts = new ArrayList<>();
        String result = retry.run("pre-load of enrichment", attempt -> {
            attempts.add(attempt);
            if (attempt == 1) {
                throw new IllegalStateException("NOT_LEADER_OR_FOLLOWER");
            }
            return "loaded";
        });
        assertEquals("loaded", result);
        assertEquals(List.of(1, 2), attempts);
        assertTrue(
                retry.report().contains("pre-load of enrichment")
                        && retry.report().contains("NOT_LEADER_OR_FOLLOWER"),
                retry.report());
    }

    @Test
    void aWrongOutputIsNeverRetried() {
        RetryOnce retry = new RetryOnce();
        List<Integer> attempts = new ArrayList<>();
        assertThrows(
                WrongOutput.class,
                () -> retry.run("run 1", attempt -> {
                    attempts.add(attempt);
                    throw new WrongOutput("3 results, 2 expected");
                }));
        assertEquals(List.of(1), attempts);
        assertEquals("", retry.report());
    }

    @Test
    void aSecondFailureEndsTheBenchmarkCarryingTheFirst() {
        RetryOnce retry = new RetryOnce();
        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> retry.run("run 1", attempt -> {
                    throw new IllegalStateException("attempt " + attempt);
                }));
        assertEquals("attempt 2", e.getMessage());
        assertEquals("attempt 1", e.getSuppressed()[0].getMessage());
    }
}
