package io.weir.streams.dsl;

import java.time.Duration;

/**
 * One window per key that holds all of its records, {@code [Long.MIN_VALUE, Long.MAX_VALUE)}. It never
 * ends (only at the end of a bounded input, where it fires its ON_TIME pane), so it needs a trigger
 * that fires early: {@code Trigger.afterCount(n)} for a pane every {@code n} records, or
 * {@code withEarlyFirings(interval)}; the topology refuses to build without one. No record is ever
 * late for it, so it has no allowed lateness. Its panes are stamped with the largest event time among
 * the records they cover.
 */
public final class GlobalWindows implements Windows {

    private static final GlobalWindows INSTANCE = new GlobalWindows();

    private GlobalWindows() {}

    /**
     * The global windows; there is one instance.
     *
     * @return the global windows
     */
    public static GlobalWindows create() {
        return INSTANCE;
    }

    /** Always zero: no record is late for a window that never ends. */
    @Override
    public Duration allowedLateness() {
        return Duration.ZERO;
    }

    @Override
    public String toString() {
        return "GlobalWindows";
    }
}
