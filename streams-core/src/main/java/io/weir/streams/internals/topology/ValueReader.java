package io.weir.streams.internals.topology;

import org.jspecify.annotations.Nullable;

/**
 * How a queryable store's stored value reads as the user's value: through the value serde, out of a
 * table row, or out of a window's state.
 */
@FunctionalInterface
public interface ValueReader<V> {

    /**
     * The value a stored entry holds; null for an entry that holds none (a versioned table's delete, a
     * window without an aggregate), which queries skip.
     */
    @Nullable
    V read(byte[] stored);
}
