package io.weir.examples;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations written on a command line: a whole number and a unit, {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h};
 * parsed from options and written back in the same form in output.
 */
final class Durations {

    private static final Pattern FORMAT = Pattern.compile("(\\d+)(ms|s|m|h)");

    private Durations() {}

    /**
     * Parses {@code text}: digits followed by {@code ms}, {@code s}, {@code m} or {@code h}; never negative,
     * and never more milliseconds than a {@code long} holds.
     *
     * @throws IllegalArgumentException naming the expected format when {@code text} does not fit it
     */
    static Duration parse(String text) {
        Matcher m = FORMAT.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration: expected a whole number and a unit, "
                    + "one of ms, s, m, h (e.g. 500ms, 10s, 2m, 1h)");
        }
        try {
            long unitMillis = switch (m.group(2)) {
                case "ms" -> 1;
                case "s" -> 1_000;
                case "m" -> 60_000;
                default -> 3_600_000;
            };
            return Duration.ofMillis(Math.multiplyExact(Long.parseLong(m.group(1)), unitMillis));
        } catch (ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException(
                    "'" + text + "' is too long a duration: at most " + Long.MAX_VALUE + "ms");
        }
    }

    /**
     * {@code duration} in the form {@link #parse} reads, in the largest unit that states it exactly:
     * {@code 1500ms}, {@code 10s}, {@code 90s}, {@code 2m}, {@code 1h}; {@code 0s} for zero.
     *
     * @throws IllegalArgumentException for a negative duration
     */
    static String format(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("A negative duration has no command-line form: " + duration);
        }
        long ms = duration.toMillis();
        if (ms == 0) {
            return "0s";
        }
        if (ms % 3_600_000 == 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1_000 == 0) {
            return ms / 1_000 + "s";
        }
        return ms + "ms";
    }
}
