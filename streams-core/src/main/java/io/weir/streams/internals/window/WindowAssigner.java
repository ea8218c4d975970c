package io.weir.streams.internals.window;

import io.weir.streams.dsl.HoppingWindows;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.dsl.Window;

import java.util.ArrayList;
import java.util.List;

/** The epoch-aligned fixed windows (tumbling: advance = size; hopping) that contain an event time. */
public final class WindowAssigner {

    private final long size;
    private final long advance;

    private WindowAssigner(long size, long advance) {
        this.size = size;
        this.advance = advance;
    }

    public static WindowAssigner tumbling(TumblingWindows windows) {
        long size = windows.size().toMillis();
        return new WindowAssigner(size, size);
    }

    public static WindowAssigner hopping(HoppingWindows windows) {
        return new WindowAssigner(windows.size().toMillis(), windows.advance().toMillis());
    }

    /** Every window {@code [start, start + size)} with {@code start} a multiple of advance that contains {@code t}, oldest first. */
    public List<Window> windowsFor(long t) {
        long lastStart = t - Math.floorMod(t, advance);
        List<Window> windows = new ArrayList<>((int) ((size + advance - 1) / advance));
        long firstStart = lastStart;
        while (firstStart - advance > t - size) {
            firstStart -= advance;
        }
        for (long start = firstStart; start <= lastStart; start += advance) {
            windows.add(new Window(start, start + size));
        }
        return windows;
    }

    public long size() {
        return size;
    }
}
