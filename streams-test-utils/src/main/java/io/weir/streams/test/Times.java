package io.weir.streams.test;

import java.time.Instant;
import java.time.LocalTime;

/** Readable instants for tests: {@code at("12:00:10")} is 12:00:10 UTC on 1970-01-01. */
public final class Times {

    private Times() {}

    /**
     * {@code HH:mm}, {@code HH:mm:ss} or {@code HH:mm:ss.SSS} on the epoch day, UTC.
     *
     * @param timeOfDay the time of day, e.g. {@code "12:00:10"}
     * @return that time on 1970-01-01, UTC
     */
    public static Instant at(String timeOfDay) {
        return Instant.ofEpochMilli(LocalTime.parse(timeOfDay).toNanoOfDay() / 1_000_000);
    }

    /**
     * {@link #at(String)} in epoch milliseconds.
     *
     * @param timeOfDay the time of day, e.g. {@code "12:00:10"}
     * @return that time on 1970-01-01, UTC, in epoch milliseconds
     */
    public static long millis(String timeOfDay) {
        return at(timeOfDay).toEpochMilli();
    }
}
