/**
 * State as users see it: the typed {@link io.weir.streams.state.KeyValueStore} a keyed processor
 * reads and writes, the {@link io.weir.streams.state.StoreType} a store is kept in, and the
 * {@link io.weir.streams.state.WindowEntry} of a window store. Public API: stable within a major
 * version.
 */
@NullMarked
package io.weir.streams.state;

import org.jspecify.annotations.NullMarked;
