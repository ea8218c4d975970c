package io.weir.benchmarks.nexmark;

/** How a query's output is read and compared with its reference. */
public enum OutputShape {

    /** Every output record is a result: the output, as a multiset, must equal the reference's results. */
    APPEND,

    /**
     * The output is a table's changes: the last value of each key is the result (a null value deletes
     * the key), and the final rows must equal the reference's. How many intermediate updates an engine
     * writes (its caches decide) does not matter.
     */
    UPSERT
}
