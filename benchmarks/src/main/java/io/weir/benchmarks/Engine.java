package io.weir.benchmarks;

import java.util.Optional;

/**
 * One stream processor under test, running one of the benchmark's topologies — a count per key over
 * 1-minute tumbling windows or over sessions — in its test driver. Single-threaded.
 */
interface Engine extends AutoCloseable {

    /** Processing time moves to {@code arrivalTime} (never back), then the record is processed. */
    void pipe(String key, long eventTime, long arrivalTime);

    /** Reads every result and changelog record written since the last drain into {@code tally}. */
    void drain(OutputTally tally);

    /** The windowed count's lateness and merge metrics so far, if the engine reports them (Weir does). */
    Optional<WindowMetrics> windowMetrics();

    /** Releases the driver and its state. */
    @Override
    void close();
}
