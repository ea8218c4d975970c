package io.weir.benchmarks;

/** Parses the numbers of benchmark command lines, with messages that name the option. */
public final class OptionValues {

    private OptionValues() {}

    /** A whole number above zero; {@code _} separators allowed ({@code 1_000_000}). */
    public static int positiveInt(String name, String text) {
        int n = nonNegativeInt(name, text);
        if (n == 0) {
            throw new IllegalArgumentException(name + " must be positive");
        }
        return n;
    }

    /** A whole number, zero or more; {@code _} separators allowed. */
    public static int nonNegativeInt(String name, String text) {
        try {
            int n = Integer.parseInt(text.replace("_", ""));
            if (n < 0) {
                throw new IllegalArgumentException(name + " must not be negative, was " + text);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, was '" + text + "'", e);
        }
    }
}
