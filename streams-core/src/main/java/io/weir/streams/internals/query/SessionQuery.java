package io.weir.streams.internals.query;

import io.weir.streams.state.ReadOnlySessionStore;
import io.weir.streams.time.Windowed;

import java.util.function.BiConsumer;

/**
 * A query of a session store over every copy this instance holds, committed state only: the rules are
 * {@link ReadOnlySessionStore}'s, the reads {@link WindowScan}'s (a session is a window of the store).
 * Every read is of one key, so it fails while a copy restores only when no ready copy holds the key.
 * Thread-safe.
 */
final class SessionQuery<K, V> implements ReadOnlySessionStore<K, V> {

    private final WindowScan<K, V> sessions;

    SessionQuery(WindowScan<K, V> sessions) {
        this.sessions = sessions;
    }

    @Override
    public void fetch(K key, BiConsumer<? super Windowed<K>, ? super V> action) {
        sessions.scanKey(key, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE, action);
    }

    @Override
    public void findSessions(
            K key,
            long earliestSessionEndTime,
            long latestSessionStartTime,
            BiConsumer<? super Windowed<K>, ? super V> action) {
        sessions.scanKey(key, Long.MIN_VALUE, latestSessionStartTime, earliestSessionEndTime, action);
    }
}
