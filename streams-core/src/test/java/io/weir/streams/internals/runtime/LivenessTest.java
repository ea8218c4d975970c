package io.weir.streams.internals.runtime;

import io.weir.streams.ThreadStall;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When a thread cuts a poll's records short, and when it counts as stalled (the rules of {@link Liveness}). */
class LivenessTest {

    private static final long MS = 1_000_000;

    /** Exactly-once, transaction timeout 10 s, max.poll.interval 300 s, commit interval 100 ms. */
    private static Liveness exactlyOnce() {
        return new Liveness("t", 10_000, 300_000, 100);
    }

    @Test
    void aBatchIsCutOnceTheOpenTransactionHasLivedHalfItsTimeout() {
        Liveness liveness = exactlyOnce();
        assertFalse(liveness.cutBatch(4_999 * MS, 0, true, 0));
        assertTrue(liveness.cutBatch(5_000 * MS, 0, true, 0));
        assertFalse(liveness.cutBatch(6_000 * MS, 0, false, 0), "no transaction open: nothing to time out");
    }

    @Test
    void aBatchIsCutOnceThePollHasLivedHalfItsInterval() {
        Liveness atLeastOnce = new Liveness("t", -1, 300_000, 100);
        assertFalse(atLeastOnce.cutBatch(149_999 * MS, 0, false, 0));
        assertTrue(atLeastOnce.cutBatch(150_000 * MS, 0, false, 0));
    }

    @Test
    void threeLossesInARowWithoutACommitAreAStallNamingTheTransactionTimeout() {
        Liveness liveness = exactlyOnce();
        InvalidProducerEpochException aborted = new InvalidProducerEpochException("aborted");
        liveness.lost(aborted, 12_000);
        liveness.lost(aborted, 12_000);
        assertNull(liveness.stall(), "two losses can be a rebalance and a zombie");
        liveness.lost(aborted, 12_000);
        ThreadStall stall = liveness.stall();
        assertNotNull(stall);
        assertTrue(
                stall.reason().contains("3 times") && stall.reason().contains("transaction.timeout.ms=10000"),
                stall.reason());
        liveness.committed();
        assertNull(liveness.stall(), "a commit ends it");
    }

    @Test
    void recordsNotCommittedForTheTransactionTimeoutAreAStall() {
        Liveness liveness = exactlyOnce();
        long now = System.currentTimeMillis();
        liveness.processed(now - 9_000);
        assertNull(liveness.stall());
        liveness.processed(now - 1_000);
        Liveness late = exactlyOnce();
        late.processed(now - 10_500);
        ThreadStall stall = late.stall();
        assertNotNull(stall);
        assertTrue(stall.reason().contains("could not commit"), stall.reason());
        late.check(now, false, true);
        assertNull(late.stall(), "nothing pending any more: the records were dropped or committed");
    }

    @Test
    void aCommitIntervalTooLongToTripleIsNoStallBound() {
        // At-least-once would otherwise call a thread stalled after 30 s; three intervals of Long.MAX_VALUE / 2
        // (3 x 2^62 wraps to a negative long) must not overflow into a bound that is already passed.
        Liveness never = new Liveness("t", -1, 300_000, Long.MAX_VALUE / 2);
        never.processed(System.currentTimeMillis() - 3_600_000);
        assertNull(never.stall(), "an hour pending is within three intervals of Long.MAX_VALUE / 2 ms");
        Liveness hour = new Liveness("t", -1, 300_000, 1_200_000);
        hour.processed(System.currentTimeMillis() - 3_700_000);
        assertNotNull(hour.stall(), "three 20-minute intervals have passed");
    }
}
