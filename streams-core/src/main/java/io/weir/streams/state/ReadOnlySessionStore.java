package io.weir.streams.state;

import io.weir.streams.time.Windowed;

import java.util.function.BiConsumer;

/**
 * The reads of a session-window aggregation's store, as {@code WeirStreams.store(name,
 * QueryableStoreType.sessionStore())} gives them: each key's sessions and their aggregates. A session
 * is the window {@code [first record, last record + gap)} ({@code SessionWindows}), its end exclusive;
 * a record that merges sessions replaces them with the merged one in the same commit, so a read never
 * sees both. A session is there from its first record until the watermark passes its end plus the
 * allowed lateness, when it is purged; its value is its current aggregate (under {@code
 * Refinement.DISCARDING}, only what it took since its last pane; a session without a value is skipped).
 *
 * <p>Sessions of a key are given in the order of their end, then their start. The store is ordered by
 * session end, not by key: {@link #findSessions} reads every key's sessions ending from {@code
 * earliestSessionEndTime} on (with a maximum session length, only those that can start by {@code
 * latestSessionStartTime}) and keeps the key's; {@link #fetch} reads every session of the store.
 *
 * <p>As for {@link ReadOnlyKeyValueStore} queries, reads see committed state only and span every copy
 * this instance holds (one per task); they fail with {@link StoreUnavailableException} when they cannot
 * be answered here; while a copy restores, a read fails unless a ready copy answers it (holds a session
 * of the key among those the read covers). A scan
 * reads each copy in batches and holds no copy while its action runs: a slow action never holds up the
 * instance (a commit, a rebalance, a close); a copy that moves away or closes meanwhile makes the scan fail
 * with a retriable {@link StoreUnavailableException} after what it gave so far, and a scan over more than
 * a batch may see commits made while it runs. {@code StoreQuery.withScanLimit} bounds what one scan gives.
 * Thread-safe.
 */
public interface ReadOnlySessionStore<K, V> {

    /**
     * Calls {@code action} for every session of {@code key}.
     *
     * @param key the key whose sessions to read
     * @param action called with each session and its value
     */
    void fetch(K key, BiConsumer<? super Windowed<K>, ? super V> action);

    /**
     * Calls {@code action} for the sessions of {@code key} whose window ends at or after {@code
     * earliestSessionEndTime} and starts at or before {@code latestSessionStartTime}, both bounds
     * inclusive. The end compared is the window's, which is exclusive: the sessions that contain the
     * instant {@code t} ({@code start <= t < end}) are {@code findSessions(key, t + 1, t, action)}, and
     * those that overlap {@code [from, to)} are {@code findSessions(key, from + 1, to - 1, action)}.
     *
     * @param key the key whose sessions to read
     * @param earliestSessionEndTime the earliest (exclusive) session end to include, in epoch milliseconds
     * @param latestSessionStartTime the latest session start to include, in epoch milliseconds
     * @param action called with each matching session and its value
     */
    void findSessions(
            K key,
            long earliestSessionEndTime,
            long latestSessionStartTime,
            BiConsumer<? super Windowed<K>, ? super V> action);
}
