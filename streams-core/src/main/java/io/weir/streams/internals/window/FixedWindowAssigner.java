package io.weir.streams.internals.window;

import io.weir.streams.dsl.Window;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * Epoch-aligned windows of a fixed size, starting every {@code advance}: hopping windows, and
 * tumbling windows when the advance is the size. A record at {@code t} belongs to every window
 * {@code [start, start + size)} with {@code start} a multiple of the advance that contains {@code t};
 * each window starts empty.
 */
final class FixedWindowAssigner<K, V, A> implements WindowAssigner<K, V, A> {

    private final long size;
    private final long advance;
    private final Aggregation<K, V, A> aggregation;

    private FixedWindowAssigner(long size, long advance, Aggregation<K, V, A> aggregation) {
        this.size = size;
        this.advance = advance;
        this.aggregation = aggregation;
    }

    static <K, V, A> FixedWindowAssigner<K, V, A> tumbling(long size, Aggregation<K, V, A> aggregation) {
        return new FixedWindowAssigner<>(size, size, aggregation);
    }

    static <K, V, A> FixedWindowAssigner<K, V, A> hopping(long size, long advance, Aggregation<K, V, A> aggregation) {
        return new FixedWindowAssigner<>(size, advance, aggregation);
    }

    @Override
    public List<WindowAssignment> assign(K key, byte[] keyBytes, long t) {
        long lastStart = t - Math.floorMod(t, advance);
        long firstStart = lastStart;
        while (firstStart - advance > t - size) {
            firstStart -= advance;
        }
        List<WindowAssignment> windows = new ArrayList<>((int) ((size + advance - 1) / advance));
        for (long start = firstStart; start <= lastStart; start += advance) {
            windows.add(WindowAssignment.of(new Window(start, start + size)));
        }
        return windows;
    }

    @Override
    public @Nullable A initial(K key, Window window) {
        return aggregation.initial();
    }
}
