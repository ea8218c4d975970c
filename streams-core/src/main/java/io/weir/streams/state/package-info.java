/**
 * State as users see it: the typed {@link io.weir.streams.state.KeyValueStore} and
 * {@link io.weir.streams.state.WindowStore} a keyed processor reads and writes, the
 * {@link io.weir.streams.state.StoreType} a store is kept in, the
 * {@link io.weir.streams.state.WindowEntry} of a window store, and the read-only views that
 * interactive queries give ({@link io.weir.streams.state.QueryableStoreType}: key-value, window and
 * session stores, and {@link io.weir.streams.state.StoreUnavailableException} when a read cannot be
 * answered). Public API: stable within a major version.
 */
@NullMarked
package io.weir.streams.state;

import org.jspecify.annotations.NullMarked;
