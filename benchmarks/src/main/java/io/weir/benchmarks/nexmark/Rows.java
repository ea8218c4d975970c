package io.weir.benchmarks.nexmark;

import org.jspecify.annotations.Nullable;

import java.util.StringJoiner;

/** The text form of a query's result rows: fields joined by commas, {@code null} for a missing field. */
final class Rows {

    private Rows() {}

    /** The row of {@code fields}. */
    static String of(@Nullable Object... fields) {
        StringJoiner row = new StringJoiner(",");
        for (Object field : fields) {
            row.add(String.valueOf(field));
        }
        return row.toString();
    }
}
