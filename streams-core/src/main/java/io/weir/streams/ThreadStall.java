package io.weir.streams;

import java.time.Instant;

/**
 * A stream thread that is alive but not making progress: it has processed records it has not been able to
 * commit for too long, or it lost its tasks' uncommitted work several times in a row. While a thread is
 * stalled nothing it reads reaches {@code read_committed} readers, though the instance may say {@code
 * RUNNING}; {@link WeirStreams#stalls()} lists them, the {@code stalled-threads} metric counts them, and
 * each stall is logged at ERROR once, saying what to change.
 *
 * @param thread the thread's name
 * @param since  when it last made progress: its last commit (or the first record after it)
 * @param reason what it meets and what to change, e.g. a transaction timeout shorter than one record's
 *               processing
 */
public record ThreadStall(String thread, Instant since, String reason) {}
