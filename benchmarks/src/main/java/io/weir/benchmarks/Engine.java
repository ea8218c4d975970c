package io.weir.benchmarks;

/**
 * One stream processor under test, running the benchmark's topology — a count per key over 1-minute
 * tumbling windows — in its test driver. Single-threaded.
 */
interface Engine extends AutoCloseable {

    /** Processing time moves to {@code arrivalTime} (never back), then the record is processed. */
    void pipe(String key, long eventTime, long arrivalTime);

    /** Reads every result and changelog record written since the last drain into {@code tally}. */
    void drain(OutputTally tally);

    /** Releases the driver and its state. */
    @Override
    void close();
}
