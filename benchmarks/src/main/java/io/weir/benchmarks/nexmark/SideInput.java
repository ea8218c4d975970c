package io.weir.benchmarks.nexmark;

/**
 * q13's side input: a fixed table of {@value #ROWS} rows, row {@code k} holding {@link #value(long)}, which the
 * Nexmark suite reads from a file and Kafka-native engines from a topic of its own (compacted, read whole by
 * every instance: a global table). A bid looks up row {@code auction mod ROWS}, so every bid finds one.
 */
public final class SideInput {

    /** The rows of the side input, as in the Nexmark suite's q13. */
    public static final int ROWS = 10_000;

    private SideInput() {}

    /** The row a bid looks up. */
    static long key(Bid bid) {
        return bid.auction() % ROWS;
    }

    /** Row {@code key}'s value. */
    static String value(long key) {
        return "side-input-" + key;
    }
}
