package io.weir.streams.internals.window;

import io.weir.streams.internals.TimeMath;
import io.weir.streams.time.Window;

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

    /**
     * The windows of a record at {@code t}: {@code lastStart} is the latest multiple of the advance not after
     * {@code t}, and the {@code extra} windows before it start {@code advance} apart, as long as they still
     * reach {@code t}. Counted, not stepped: stepping a start past the last one could overflow. The last
     * window of time ends at Long.MAX_VALUE, shorter than the others, since no time lies beyond it.
     */
    @Override
    public List<WindowAssignment> assign(K key, byte[] keyBytes, long t) {
        long lastStart = t - Math.floorMod(t, advance);
        long extra = (size - 1 - (t - lastStart)) / advance;
        List<WindowAssignment> windows = new ArrayList<>((int) extra + 1);
        for (long i = extra; i >= 0; i--) {
            long start = lastStart - i * advance;
            windows.add(WindowAssignment.of(new Window(start, TimeMath.plus(start, size))));
        }
        return windows;
    }
}
