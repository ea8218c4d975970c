package io.weir.streams.internals.window;

import io.weir.streams.dsl.Window;

import java.util.ArrayList;
import java.util.List;

/**
 * Epoch-aligned windows of a fixed size, starting every {@code advance}: hopping windows, and
 * tumbling windows when the advance is the size. A record at {@code t} belongs to every window
 * {@code [start, start + size)} with {@code start} a multiple of the advance that contains {@code t}.
 */
final class FixedWindowAssigner<K, V, A> implements WindowAssigner<K, V, A> {

    private final long size;
    private final long advance;

    private FixedWindowAssigner(long size, long advance) {
        this.size = size;
        this.advance = advance;
    }

    static <K, V, A> FixedWindowAssigner<K, V, A> tumbling(long size) {
        return new FixedWindowAssigner<>(size, size);
    }

    static <K, V, A> FixedWindowAssigner<K, V, A> hopping(long size, long advance) {
        return new FixedWindowAssigner<>(size, advance);
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
}
