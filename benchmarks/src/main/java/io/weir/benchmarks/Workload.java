package io.weir.benchmarks;

import java.util.SplittableRandom;

/**
 * The input of the windowed-count benchmarks, generated once per JVM before anything is measured, so
 * that every engine gets the same records and none pays for making them.
 *
 * <p>Record {@code i} arrives at processing time {@code start + floor(i * interval)} (the test-driver
 * benchmark feeds it at that time; the runtime benchmark produces it at that offset from the start of
 * a paced run, or all at once to pre-load a topic). Its key is drawn
 * uniformly from {@code keys} distinct keys. 95% of records are in order (event time = arrival
 * time); the other 5% carry an event time 1 ms to a maximum disorder older than their arrival: by
 * default {@value #MAX_DELAY_MS} ms. The newest event time seen before record {@code i} is never
 * later than its arrival, so every record is at most the maximum disorder behind it. With the default
 * 30 s that is on time under a 30 s bounded out-of-orderness (Weir) and within a 30 s grace period
 * (Kafka Streams), and both engines count every record; the session benchmark uses a longer disorder
 * so that some records are late (see {@code SessionCountTopologies}).
 *
 * <p>Deterministic: the same arguments always give the same records.
 */
public final class Workload {

    /** A minute boundary (2023-11-14T22:13:00Z), so windows line up with the first record. */
    static final long START = 1_699_999_980_000L;

    public static final long MAX_DELAY_MS = 30_000;
    public static final double OUT_OF_ORDER_FRACTION = 0.05;
    public static final String VALUE = "payment";
    private static final long SEED = 20_240_601L;

    private final String[] keyNames;
    private final int[] keyOf;
    private final long[] eventTimes;
    private final long start;
    private final double intervalMs;

    private Workload(String[] keyNames, int[] keyOf, long[] eventTimes, long start, double intervalMs) {
        this.keyNames = keyNames;
        this.keyOf = keyOf;
        this.eventTimes = eventTimes;
        this.start = start;
        this.intervalMs = intervalMs;
    }

    /**
     * {@code records} records over {@code keys} keys, one every {@code intervalMs} (may be fractional)
     * of processing time from {@code start}.
     */
    public static Workload generate(int records, int keys, double intervalMs, long start) {
        return generate(records, keys, intervalMs, start, MAX_DELAY_MS);
    }

    /**
     * As {@link #generate(int, int, double, long)}, with out-of-order records up to {@code maxDelayMs}
     * (instead of {@value #MAX_DELAY_MS}) older than their arrival.
     */
    public static Workload generate(int records, int keys, double intervalMs, long start, long maxDelayMs) {
        if (records <= 0 || keys <= 0 || intervalMs <= 0 || maxDelayMs <= 0) {
            throw new IllegalArgumentException("records, keys, interval and maximum delay must be positive");
        }
        String[] keyNames = new String[keys];
        for (int k = 0; k < keys; k++) {
            keyNames[k] = "key-" + k;
        }
        SplittableRandom random = new SplittableRandom(SEED);
        int[] keyOf = new int[records];
        long[] eventTimes = new long[records];
        for (int i = 0; i < records; i++) {
            keyOf[i] = random.nextInt(keys);
            long arrival = arrival(start, i, intervalMs);
            boolean late = random.nextDouble() < OUT_OF_ORDER_FRACTION;
            eventTimes[i] = late ? arrival - random.nextLong(1, maxDelayMs + 1) : arrival;
        }
        return new Workload(keyNames, keyOf, eventTimes, start, intervalMs);
    }

    private static long arrival(long start, int i, double intervalMs) {
        return start + (long) Math.floor(i * intervalMs);
    }

    public int size() {
        return eventTimes.length;
    }

    public String key(int i) {
        return keyNames[keyOf[i]];
    }

    public long eventTime(int i) {
        return eventTimes[i];
    }

    public long arrivalTime(int i) {
        return arrival(start, i, intervalMs);
    }

    /** When the first record arrives. */
    public long start() {
        return start;
    }
}
