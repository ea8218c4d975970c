package io.weir.streams.internals;

import java.time.Duration;
import java.util.Objects;

/** Build-time argument checks whose messages name the parameter, so a bad setting is found at once. */
public final class Require {

    private static final Duration ONE_MILLI = Duration.ofMillis(1);

    private Require() {}

    public static Duration nonNegative(String name, Duration d) {
        Objects.requireNonNull(d, name + " must not be null");
        if (d.isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative, was " + d);
        }
        return d;
    }

    /** At least a millisecond: Weir keeps time in milliseconds, so less would silently become zero. */
    public static Duration positive(String name, Duration d) {
        Objects.requireNonNull(d, name + " must not be null");
        if (d.compareTo(ONE_MILLI) < 0) {
            throw new IllegalArgumentException(name + " must be at least 1 ms, was " + d);
        }
        return d;
    }

    public static String name(String what, String name) {
        Objects.requireNonNull(name, what + " must not be null");
        if (name.isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank");
        }
        return name;
    }
}
