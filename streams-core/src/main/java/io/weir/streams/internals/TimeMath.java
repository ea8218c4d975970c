package io.weir.streams.internals;

import java.time.Duration;

/**
 * Event-time arithmetic that saturates instead of wrapping: watermarks start at Long.MIN_VALUE, end
 * at Long.MAX_VALUE, and allowed lateness may be huge, so plain {@code +} and {@code -} would wrap
 * into the opposite end of time and purge or keep the wrong windows.
 */
public final class TimeMath {

    private static final Duration MAX_MILLIS = Duration.ofMillis(Long.MAX_VALUE);

    private TimeMath() {}

    public static long plus(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? (a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : r;
    }

    public static long minus(long a, long b) {
        long r = a - b;
        return ((a ^ b) & (a ^ r)) < 0 ? (a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : r;
    }

    /** {@code d} in milliseconds, Long.MAX_VALUE for a duration longer than that (where {@code toMillis} throws). */
    public static long millis(Duration d) {
        return d.compareTo(MAX_MILLIS) >= 0 ? Long.MAX_VALUE : d.toMillis();
    }
}
