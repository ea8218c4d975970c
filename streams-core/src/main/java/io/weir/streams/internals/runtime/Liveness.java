package io.weir.streams.internals.runtime;

import io.weir.streams.ThreadStall;
import io.weir.streams.internals.Redaction;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;

/**
 * Whether one stream thread makes progress, and what it does to keep making it.
 *
 * <ul>
 *   <li><b>Cutting batches.</b> Under exactly-once a transaction the broker sees open for longer than
 *       {@code transaction.timeout.ms} is aborted, and the thread loses its tasks with their work; a
 *       poll that lives longer than {@code max.poll.interval.ms} costs the thread its group membership.
 *       So the thread stops processing a poll's records once its open transaction has lived half its
 *       timeout, or the poll half its interval ({@link #cutBatch}), and commits before it goes on.</li>
 *   <li><b>Stalls.</b> A thread is stalled when it has processed records it has not committed for
 *       {@code max(transaction.timeout.ms, 3 × commit.interval.behind.ms)} (the longer of the thread's
 *       two commit intervals; 30 s instead of the timeout under
 *       at-least-once), or lost its tasks' uncommitted work {@value #LOSSES_BEFORE_STALL} times in a row
 *       without a commit between: then nothing it reads reaches {@code read_committed} readers, though
 *       it runs. A stall is logged at ERROR once, saying what to change, and reported until the next
 *       commit ({@link #stall()}).</li>
 * </ul>
 *
 * <p>Written by the stream thread only; {@link #stall()} and {@link #hasCommitted()} are read from any
 * thread (volatile fields, one writer).
 */
final class Liveness {

    private static final Logger log = LoggerFactory.getLogger(Liveness.class);
    static final int LOSSES_BEFORE_STALL = 3;
    private static final long AT_LEAST_ONCE_STALL_MS = 30_000;

    private final String thread;
    private final long transactionTimeoutMs;
    private final long halfTransactionNanos;
    private final long halfPollNanos;
    private final long stallAfterMs;

    /** Since when the thread has processed records it has not committed; 0 when it has none. */
    private volatile long pendingSinceMs;

    private volatile int lossStreak;
    private volatile long streakSinceMs;
    private volatile String lastLoss = "";
    private volatile boolean committed;
    private long idleSinceMs;
    private boolean reported;

    /**
     * @param transactionTimeoutMs the producer's {@code transaction.timeout.ms}, or -1 under at-least-once
     * @param maxPollIntervalMs    the consumer's {@code max.poll.interval.ms}
     */
    Liveness(String thread, long transactionTimeoutMs, long maxPollIntervalMs, long longestCommitIntervalMs) {
        this.thread = thread;
        this.transactionTimeoutMs = transactionTimeoutMs;
        this.halfTransactionNanos = transactionTimeoutMs < 0 ? Long.MAX_VALUE : transactionTimeoutMs * 500_000;
        this.halfPollNanos = maxPollIntervalMs * 500_000;
        // Saturated: a huge commit interval (in effect, never while behind) would overflow to a negative bound.
        long threeIntervals =
                longestCommitIntervalMs > Long.MAX_VALUE / 3 ? Long.MAX_VALUE : 3 * longestCommitIntervalMs;
        this.stallAfterMs =
                Math.max(threeIntervals, transactionTimeoutMs < 0 ? AT_LEAST_ONCE_STALL_MS : transactionTimeoutMs);
    }

    /** Whether the thread should stop processing the records of the poll that returned at {@code pollNanos}. */
    boolean cutBatch(long nowNanos, long pollNanos, boolean transactionOpen, long transactionStartNanos) {
        return (transactionOpen && nowNanos - transactionStartNanos >= halfTransactionNanos)
                || nowNanos - pollNanos >= halfPollNanos;
    }

    /** The thread processed records at {@code nowMs}, which it will commit. */
    void processed(long nowMs) {
        if (pendingSinceMs == 0) {
            pendingSinceMs = nowMs;
        }
    }

    /** A commit succeeded: whatever was stalled makes progress again. */
    void committed() {
        if (reported) {
            log.info("Stream thread {} commits again", thread);
            reported = false;
        }
        pendingSinceMs = 0;
        lossStreak = 0;
        committed = true;
    }

    /**
     * The thread lost its tasks with their uncommitted work.
     *
     * @param transactionAgeMs how long the open transaction had lived, or -1 when none was open
     */
    void lost(Throwable cause, long transactionAgeMs) {
        if (lossStreak == 0) {
            streakSinceMs = System.currentTimeMillis();
        }
        String loss = Redaction.describe(cause);
        if (transactionTimeoutMs >= 0 && transactionAgeMs >= transactionTimeoutMs) {
            loss += " (the open transaction had lived " + transactionAgeMs + " ms, longer than transaction.timeout.ms="
                    + transactionTimeoutMs + ": one record took longer than half of it, and the thread commits within a"
                    + " poll's records only between records; make the slow call faster or asynchronous, or raise "
                    + "producer.transaction.timeout.ms)";
        }
        lastLoss = loss;
        // One writer: the stream thread; other threads only read it.
        @SuppressWarnings("NonAtomicVolatileUpdate")
        int streak = lossStreak + 1;
        lossStreak = streak;
    }

    /** Logs a stall once, when it begins; forgets pending work that is gone. Called by the thread each loop. */
    void check(long nowMs, boolean pending, boolean hasTasks) {
        if (!pending) {
            pendingSinceMs = 0;
        }
        if (pending || hasTasks) {
            idleSinceMs = 0;
        } else if (idleSinceMs == 0) {
            idleSinceMs = nowMs;
        } else if (lossStreak > 0 && nowMs - idleSinceMs >= stallAfterMs) {
            // Its tasks went elsewhere for good: nothing here is waiting to be committed.
            lossStreak = 0;
        }
        ThreadStall stall = stall(nowMs);
        if (stall != null && !reported) {
            reported = true;
            log.error("Stream thread {} is stalled since {}: {}", thread, stall.since(), stall.reason());
        }
    }

    /** Whether the thread is stalled now, and why; null when it makes progress. */
    @Nullable
    ThreadStall stall() {
        return stall(System.currentTimeMillis());
    }

    private @Nullable ThreadStall stall(long nowMs) {
        int streak = lossStreak;
        if (streak >= LOSSES_BEFORE_STALL) {
            return new ThreadStall(
                    thread,
                    Instant.ofEpochMilli(streakSinceMs),
                    "it lost its tasks' uncommitted work " + streak + " times in a row without a commit; last: "
                            + lastLoss);
        }
        long pendingSince = pendingSinceMs;
        if (pendingSince != 0 && nowMs - pendingSince >= stallAfterMs) {
            return new ThreadStall(
                    thread,
                    Instant.ofEpochMilli(pendingSince),
                    "it has processed records it could not commit for " + (nowMs - pendingSince) / 1000
                            + " s (a commit waits for a rebalance that does not end, or a single record takes longer "
                            + "than that; see the thread's log)");
        }
        return null;
    }

    boolean hasCommitted() {
        return committed;
    }
}
