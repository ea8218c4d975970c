package io.weir.streams.test.reference;

import io.weir.streams.dsl.PaneInfo;

import java.util.Comparator;

/** One windowed result: key, window {@code [start, end)}, value, the record's timestamp and its pane info. */
record Pane(
        String key,
        long start,
        long end,
        long value,
        long timestamp,
        PaneInfo.Timing timing,
        long index,
        boolean isFinal) {

    /** By key, window and index: a canonical order for comparing multisets of panes. */
    static final Comparator<Pane> ORDER = Comparator.comparing(Pane::key)
            .thenComparingLong(Pane::start)
            .thenComparingLong(Pane::end)
            .thenComparingLong(Pane::index)
            .thenComparing(Pane::toString);

    @Override
    public String toString() {
        return key + "@[" + start + "," + end + ") value=" + value + " ts=" + timestamp + " " + timing + " #" + index
                + (isFinal ? " final" : "");
    }
}
