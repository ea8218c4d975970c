package io.weir.streams.internals.metrics;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Rates and averages over roughly the last 30 seconds, for readers of cumulative values (a count, and for
 * a timer its total time). It samples the values when read, at most once a second, and answers against
 * the oldest sample younger than the window (or the one just older): the first reads after it is made
 * answer over the time since then. Thread-safe.
 */
final class SampledWindow {

    static final long WINDOW_NANOS = 30_000_000_000L;
    private static final long SAMPLE_NANOS = 1_000_000_000L;

    /** The change of both values since the window's base, over {@code seconds}. */
    record Delta(double count, double total, double seconds) {

        double rate() {
            return seconds <= 0 ? 0 : count / seconds;
        }

        /** Total per count; NaN when nothing was counted. */
        double average() {
            return count <= 0 ? Double.NaN : total / count;
        }
    }

    private record Sample(long nanos, double count, double total) {}

    private final Deque<Sample> samples = new ArrayDeque<>();

    SampledWindow(long nowNanos, double count, double total) {
        samples.add(new Sample(nowNanos, count, total));
    }

    synchronized Delta delta(long nowNanos, double count, double total) {
        if (nowNanos - samples.getLast().nanos() >= SAMPLE_NANOS) {
            samples.addLast(new Sample(nowNanos, count, total));
        }
        while (samples.size() > 1 && nowNanos - secondOldest().nanos() >= WINDOW_NANOS) {
            samples.removeFirst();
        }
        Sample base = samples.getFirst();
        return new Delta(count - base.count(), total - base.total(), (nowNanos - base.nanos()) / 1e9);
    }

    private Sample secondOldest() {
        var it = samples.iterator();
        it.next();
        return it.next();
    }
}
