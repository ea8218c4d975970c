package io.weir.streams.internals.query;

import io.weir.streams.state.ReadOnlyWindowStore;
import io.weir.streams.time.Windowed;
import org.jspecify.annotations.Nullable;

import java.util.function.BiConsumer;

/**
 * A query of a window store over every copy this instance holds, committed state only: the rules are
 * {@link ReadOnlyWindowStore}'s, the reads {@link WindowScan}'s. A read of one key fails while a copy
 * restores only when no ready copy holds the key; a read of every key fails while any copy restores.
 * Thread-safe.
 */
final class WindowQuery<K, V> implements ReadOnlyWindowStore<K, V> {

    private final WindowScan<K, V> windows;

    WindowQuery(WindowScan<K, V> windows) {
        this.windows = windows;
    }

    @Override
    public @Nullable V fetch(K key, long windowStart) {
        return windows.get(key, windowStart);
    }

    @Override
    public void fetch(K key, long timeFrom, long timeTo, BiConsumer<? super Windowed<K>, ? super V> action) {
        windows.scanKey(key, timeFrom, timeTo, Long.MIN_VALUE, action);
    }

    @Override
    public void fetchAll(long timeFrom, long timeTo, BiConsumer<? super Windowed<K>, ? super V> action) {
        windows.scanAll(timeFrom, timeTo, action);
    }

    @Override
    public void forEach(BiConsumer<? super Windowed<K>, ? super V> action) {
        windows.scanAll(Long.MIN_VALUE, Long.MAX_VALUE, action);
    }
}
