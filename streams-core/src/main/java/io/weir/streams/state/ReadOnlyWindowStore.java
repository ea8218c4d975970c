package io.weir.streams.state;

import io.weir.streams.time.Window;
import io.weir.streams.time.Windowed;
import org.jspecify.annotations.Nullable;

import java.util.function.BiConsumer;

/**
 * The reads of a window store, as {@code WeirStreams.store(name, QueryableStoreType.windowStore())}
 * gives them: each key's windows and their values. A windowed aggregation's store holds, per key and
 * window, the window's current aggregate (under {@code Refinement.DISCARDING}, only what the window took
 * since its last pane); a window is there from its first record until the watermark passes its end
 * plus the allowed lateness, when it is purged. A keyed processor's window store ({@code
 * withRetention}) holds its entries at each time {@code t} as the one-millisecond window {@code [t, t +
 * 1)}: {@code fetch(key, t)} reads the entry at {@code t}.
 *
 * <p>Every window of a store has the same length (a global window is {@code [Long.MIN_VALUE,
 * Long.MAX_VALUE)}), so the order of windows by start is also their order by end. Time bounds are
 * window starts, in epoch milliseconds, both inclusive. Scans call their action in start order, then
 * in the order of the serialized keys' bytes; a window without a value (a reduce under discarding
 * refinement that took nothing since its last pane) is skipped.
 *
 * <p>The store is ordered by window end, not by key: a read of one key over a time range reads every
 * key's windows in that range and keeps the key's, so it costs what {@link #fetchAll} over the same
 * range costs; {@link #fetch(Object, long)} is one lookup per task's copy.
 *
 * <p>As for {@link ReadOnlyKeyValueStore} queries, reads see committed state only and span every copy
 * this instance holds (one per task); they fail with {@link StoreUnavailableException} when they cannot
 * be answered here. A read of one key fails while a copy restores unless a ready copy answers it (holds
 * a window of the key among those the read covers); {@link #fetchAll} and {@link #forEach} fail while any
 * copy restores. A scan
 * reads each copy in batches and holds no copy while its action runs: a slow action never holds up the
 * instance (a commit, a rebalance, a close); a copy that moves away or closes meanwhile makes the scan fail
 * with a retriable {@link StoreUnavailableException} after what it gave so far, and a scan over more than
 * a batch may see commits made while it runs. {@code StoreQuery.withScanLimit} bounds what one scan gives.
 * Thread-safe.
 */
public interface ReadOnlyWindowStore<K, V> {

    /**
     * The value of {@code key}'s window that starts at {@code windowStart}, or null when there is none.
     *
     * @param key the key to look up
     * @param windowStart the window's start, in epoch milliseconds
     * @return the window's value, or null
     */
    @Nullable
    V fetch(K key, long windowStart);

    /**
     * Calls {@code action} for the windows of {@code key} that start in {@code [timeFrom, timeTo]}, both
     * inclusive, in start order.
     *
     * @param key the key whose windows to read
     * @param timeFrom the earliest window start, in epoch milliseconds, inclusive
     * @param timeTo the latest window start, in epoch milliseconds, inclusive
     * @param action called with each window of the key and its value
     */
    void fetch(K key, long timeFrom, long timeTo, BiConsumer<? super Windowed<K>, ? super V> action);

    /**
     * Calls {@code action} for the windows of every key that start in {@code [timeFrom, timeTo]}, both
     * inclusive, in start order, then serialized-key order.
     *
     * @param timeFrom the earliest window start, in epoch milliseconds, inclusive
     * @param timeTo the latest window start, in epoch milliseconds, inclusive
     * @param action called with each window and its value
     */
    void fetchAll(long timeFrom, long timeTo, BiConsumer<? super Windowed<K>, ? super V> action);

    /**
     * Calls {@code action} for every window of every key, in start order, then serialized-key order.
     * {@link Window#start()} and {@link Window#end()} of each say where it lies.
     *
     * @param action called with each window and its value
     */
    void forEach(BiConsumer<? super Windowed<K>, ? super V> action);
}
