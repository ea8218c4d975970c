package io.weir.streams.internals.window;

import io.weir.streams.time.Window;

import java.util.List;

/**
 * The one window of each key that holds all its records, {@code [Long.MIN_VALUE, Long.MAX_VALUE)}:
 * it never ends, so only early firings emit it (and the end of a bounded input). Its panes are
 * stamped with the largest event time it holds, which its state keeps.
 */
final class GlobalWindowAssigner<K, V, A> implements WindowAssigner<K, V, A> {

    static final Window GLOBAL = new Window(Long.MIN_VALUE, Long.MAX_VALUE);
    private static final List<WindowAssignment> ASSIGNMENT = List.of(WindowAssignment.of(GLOBAL));

    @Override
    public List<WindowAssignment> assign(K key, byte[] keyBytes, long t) {
        return ASSIGNMENT;
    }
}
