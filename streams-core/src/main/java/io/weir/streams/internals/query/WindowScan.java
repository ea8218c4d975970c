package io.weir.streams.internals.query;

import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.state.ByteEntry;
import io.weir.streams.internals.state.WindowKeys;
import io.weir.streams.internals.topology.WindowView;
import io.weir.streams.time.Window;
import io.weir.streams.time.Windowed;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The reads of a store in the window-store layout over its copies ({@link StoreCopies}), shared by the
 * window and session views: the windows whose start lies in a range and whose end is at least a bound,
 * of one key or of every key, in store order (by end, then start, then key bytes).
 *
 * <p>The store is ordered by end, so a read scans the ends its windows can have: from the earliest
 * start plus the shortest span (or the end bound) to the latest start plus the longest span ({@link
 * WindowView}), keeping what it selects. A window of a fixed span is also found by one lookup ({@link
 * #get}). Windows without a value are skipped. Thread-safe.
 */
final class WindowScan<K, V> {

    private final WindowView<K, V> view;
    private final StoreCopies copies;

    WindowScan(WindowView<K, V> view, StoreCopies copies) {
        this.view = view;
        this.copies = copies;
    }

    /** The value of {@code key}'s window that starts at {@code start}, or null when there is none. */
    @Nullable
    V get(K key, long start) {
        if (view.minSpan() == view.maxSpan() && view.maxSpan() != WindowView.UNBOUNDED) {
            byte[] stored = copies.get(WindowKeys.encode(TimeMath.plus(start, view.minSpan()), start, view.key(key)));
            return stored == null ? null : view.values().read(stored);
        }
        List<V> found = new ArrayList<>(1);
        scanKey(key, start, start, Long.MIN_VALUE, (window, value) -> found.add(value));
        return found.isEmpty() ? null : found.get(0);
    }

    /**
     * Calls {@code action} for the windows of {@code key} that start in {@code [startFrom, startTo]} and
     * end at or after {@code endFrom}; a copy that cannot be read fails the read only when no copy that
     * can holds the key.
     */
    void scanKey(K key, long startFrom, long startTo, long endFrom, BiConsumer<? super Windowed<K>, ? super V> action) {
        byte[] keyBytes = view.key(key);
        copies.scanKey(
                lower(startFrom, endFrom),
                upper(startTo),
                storeKey -> WindowKeys.hasKey(storeKey, keyBytes),
                select(startFrom, startTo, endFrom, storeKey -> key, action));
    }

    /** Calls {@code action} for the windows of every key that start in {@code [startFrom, startTo]}. */
    void scanAll(long startFrom, long startTo, BiConsumer<? super Windowed<K>, ? super V> action) {
        copies.scan(
                lower(startFrom, Long.MIN_VALUE),
                upper(startTo),
                select(startFrom, startTo, Long.MIN_VALUE, storeKey -> view.key(WindowKeys.key(storeKey)), action));
    }

    /** The scan's lower bound: the smallest stored end of a window selected. */
    private byte @Nullable [] lower(long startFrom, long endFrom) {
        long end = Math.max(TimeMath.plus(startFrom, view.minSpan()), view.storedEndFrom(endFrom));
        return end == Long.MIN_VALUE ? null : WindowKeys.endBound(end);
    }

    /** The scan's upper bound, exclusive: past the largest stored end of a window selected. */
    private byte @Nullable [] upper(long startTo) {
        if (view.maxSpan() == WindowView.UNBOUNDED) {
            return null;
        }
        long end = TimeMath.plus(startTo, view.maxSpan());
        return end == Long.MAX_VALUE ? null : WindowKeys.endBound(end + 1);
    }

    private Consumer<ByteEntry> select(
            long startFrom,
            long startTo,
            long endFrom,
            Function<byte[], K> keyOf,
            BiConsumer<? super Windowed<K>, ? super V> action) {
        return entry -> {
            long start = WindowKeys.start(entry.key());
            if (start < startFrom || start > startTo) {
                return;
            }
            Window window = view.window(entry.key());
            if (window.end() < endFrom) {
                return;
            }
            V value = view.values().read(entry.value());
            if (value != null) {
                action.accept(new Windowed<>(keyOf.apply(entry.key()), window), value);
            }
        };
    }
}
