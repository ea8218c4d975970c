package io.weir.streams.internals.table;

import io.weir.streams.time.TimeDomain;

/**
 * A table's time-to-live, as built: how long a row lives unchanged, in which time domain, and the store
 * of its {@link RowExpiry} index.
 */
public record TimeToLive(long ttl, TimeDomain domain, String indexStore) {

    /** The index store of table store {@code store}. */
    public static String indexStoreOf(String store) {
        return store + "-ttl";
    }
}
