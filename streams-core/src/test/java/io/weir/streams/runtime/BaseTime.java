package io.weir.streams.runtime;

/** Event-time bases for the runtime tests. */
final class BaseTime {

    /** How far back the tests' event times start: every test stream ends before now. */
    private static final long SPAN_MS = 2_000_000;

    private BaseTime() {}

    /** A window-aligned time {@code SPAN_MS} ago. */
    static long recentPast() {
        long t = System.currentTimeMillis() - SPAN_MS;
        return t - t % WindowedCountApp.WINDOW;
    }
}
