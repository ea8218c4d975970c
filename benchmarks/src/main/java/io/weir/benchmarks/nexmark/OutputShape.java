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
    UPSERT,

    /**
     * Every output record adds an amount to its key's total: its value if a number, else the first element
     * of its {@code long[]} value. The totals must equal the reference's (whose values are the totals). For
     * results that depend on when an engine processes each record, such as counts per processing-time
     * window: how a key's records split into windows may differ from run to run, their sum may not.
     */
    SUMMED
}
