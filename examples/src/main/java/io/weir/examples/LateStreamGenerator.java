package io.weir.examples;

import java.time.Duration;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A synthetic recorded stream with a heavy late tail, the same for the same seed.
 *
 * <p>Arrivals increase by 0 to 50 ms per record (about four records per 100 ms), starting at the
 * first multiple of the window that is at least {@code maxLate}, so that no event time is negative.
 * Each record gets one of {@value #KEYS} keys ({@code sensor-1} ...) at random. Most records' event
 * times trail their arrival by a small jitter, uniform below a tenth of the window; a share
 * {@code lateShare} of records instead trail it by at least that tenth, plus a long tail: an
 * exponential delay with mean a quarter of {@code maxLate}, cut off so that no record is later than
 * {@code maxLate}.
 */
final class LateStreamGenerator {

    static final int KEYS = 5;
    private static final int MAX_GAP_MS = 50;

    private final double lateShare;
    private final long maxLateMs;
    private final long windowMs;
    private final long firstArrivalMs;
    private final long seed;

    /**
     * @param lateShare share of late records, in [0, 1]
     * @param maxLate   the most a late record trails its arrival (not negative)
     * @param window    the window size (positive): on-time jitter stays below a tenth of it
     * @param seed      the same seed gives the same stream
     */
    LateStreamGenerator(double lateShare, Duration maxLate, Duration window, long seed) {
        if (!(lateShare >= 0 && lateShare <= 1)) {
            throw new IllegalArgumentException("The late share must be between 0 and 1, was " + lateShare);
        }
        if (maxLate.isNegative() || window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException(
                    "The maximum lateness must not be negative and the window must be positive, " + "were " + maxLate
                            + " and " + window);
        }
        this.lateShare = lateShare;
        this.maxLateMs = maxLate.toMillis();
        this.windowMs = window.toMillis();
        try {
            this.firstArrivalMs =
                    Math.multiplyExact(Math.floorDiv(Math.addExact(maxLateMs, windowMs - 1), windowMs), windowMs);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("A maximum lateness of " + maxLate + " and a window of " + window
                    + " do not fit in millisecond timestamps");
        }
        this.seed = seed;
    }

    /** {@code count} records in arrival order. */
    Stream<FrontierEvent> events(long count) {
        return Stream.generate(new Records()).limit(count);
    }

    /** The records of one stream, one after the other. */
    private final class Records implements Supplier<FrontierEvent> {
        private final Random random = new Random(seed);
        private final long jitterMs = Math.max(1, windowMs / 10);
        private final long minLateMs = Math.min(jitterMs, maxLateMs);
        private long arrivalMs = firstArrivalMs;

        @Override
        public FrontierEvent get() {
            arrivalMs += random.nextInt(MAX_GAP_MS + 1);
            String key = "sensor-" + (1 + random.nextInt(KEYS));
            long behindMs = random.nextDouble() < lateShare
                    ? minLateMs + tail(random.nextDouble(), maxLateMs - minLateMs)
                    : (long) (random.nextDouble() * jitterMs);
            return new FrontierEvent(arrivalMs, arrivalMs - behindMs, key);
        }
    }

    /** An exponential with mean {@code maxLateMs / 4}, truncated to {@code [0, range]}, from a uniform {@code u} in [0, 1). */
    private long tail(double u, long range) {
        if (range == 0) {
            return 0;
        }
        double mean = maxLateMs / 4.0;
        return Math.min(range, (long) (-mean * Math.log(1 - u * (1 - Math.exp(-range / mean)))));
    }
}
