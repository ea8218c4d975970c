package io.weir.streams.internals.table;

import org.jspecify.annotations.Nullable;

/**
 * One change of a table's row, as it travels between table operators: the row's value before and
 * after. {@code oldValue == null} inserts, {@code newValue == null} deletes; never both null. Carrying
 * the old value is what lets an aggregation downstream take it back (its subtractor), so retraction is
 * part of every table change rather than an option.
 */
public record Change<V>(@Nullable V oldValue, @Nullable V newValue) {

    public Change {
        if (oldValue == null && newValue == null) {
            throw new IllegalArgumentException("A change has an old value, a new value, or both");
        }
    }

    /** An insert of {@code value} (no old value). */
    public static <V> Change<V> insert(V value) {
        return new Change<>(null, value);
    }
}
