package io.weir.streams.state;

import java.util.Objects;

/**
 * Which store {@code WeirStreams.store(query)} reads, and from which of this instance's copies: by
 * default only the active tasks' (committed state, as up to date as the instance's output); {@link
 * #withStaleReads(boolean) withStaleReads(true)} also reads the standby copies this instance keeps,
 * which may be behind (their lag is in {@code WeirStreams.localStoreLags()}). Immutable.
 *
 * @param <T> the view the query gets, from its {@link QueryableStoreType}
 */
public final class StoreQuery<T> {

    private final String storeName;
    private final QueryableStoreType<T> type;
    private final boolean staleReads;
    private final long scanLimit;

    private StoreQuery(String storeName, QueryableStoreType<T> type, boolean staleReads, long scanLimit) {
        this.storeName = Objects.requireNonNull(storeName, "storeName");
        this.type = Objects.requireNonNull(type, "type");
        this.staleReads = staleReads;
        this.scanLimit = scanLimit;
    }

    /**
     * A query of store {@code storeName}, of the kind {@code type} names, reading the active copies only.
     *
     * @param <T> the view the query gets
     * @param storeName the store's name, as given with {@code Materialized.as}
     * @param type the kind of store, e.g. {@link QueryableStoreType#keyValueStore()}
     * @return the query, without stale reads or scan limit
     */
    public static <T> StoreQuery<T> of(String storeName, QueryableStoreType<T> type) {
        return new StoreQuery<>(storeName, type, false, Long.MAX_VALUE);
    }

    /**
     * The same query, also reading (or not) the standby copies this instance keeps
     * ({@code num.standby.replicas}).
     *
     * <p>A standby copy holds what it has read of the task's changelogs, committed transactions only
     * ({@code read_committed}): it never shows a value an abort takes back, but it is behind the active
     * task by its lag, and a read may see part of one commit's writes (a copy applies the changelog in
     * batches that need not end where a transaction does). A key whose active task runs here is read
     * from the active copy. Use it to keep answering, slightly stale, while the active instance is down
     * or moving; compare the lag with what the answer may be behind.
     *
     * @param staleReads true to read the standby copies too
     * @return a copy of this query with that setting
     */
    public StoreQuery<T> withStaleReads(boolean staleReads) {
        return new StoreQuery<>(storeName, type, staleReads, scanLimit);
    }

    /**
     * The same query, its scans ({@code forEach}, {@code range}, {@code fetchAll}, ...) stopping after
     * {@code entries} entries: a service answering requests bounds what one request can cost. Reads of one
     * key are not affected.
     *
     * @param entries the most entries one scan gives; positive
     * @return a copy of this query with that limit
     * @throws IllegalArgumentException if {@code entries} is not positive
     */
    public StoreQuery<T> withScanLimit(long entries) {
        if (entries <= 0) {
            throw new IllegalArgumentException("scanLimit must be positive, was " + entries);
        }
        return new StoreQuery<>(storeName, type, staleReads, entries);
    }

    /**
     * The name of the store to read.
     *
     * @return the store's name
     */
    public String storeName() {
        return storeName;
    }

    /**
     * The kind of store to read.
     *
     * @return the store type, which gives the view's type
     */
    public QueryableStoreType<T> type() {
        return type;
    }

    /**
     * Whether standby copies are read too.
     *
     * @return true if standby copies answer too
     */
    public boolean staleReads() {
        return staleReads;
    }

    /**
     * The most entries a scan gives; Long.MAX_VALUE unless {@link #withScanLimit} set one.
     *
     * @return the limit, in entries
     */
    public long scanLimit() {
        return scanLimit;
    }

    @Override
    public String toString() {
        return "StoreQuery[" + storeName + ", " + type + (staleReads ? ", stale reads" : "")
                + (scanLimit != Long.MAX_VALUE ? ", scan limit " + scanLimit : "") + "]";
    }
}
