package io.weir.streams.internals.state;

/**
 * Where a task offers its queryable stores to queries from other threads ({@code
 * internals.query.LocalStores}): called by the task's thread only.
 */
public interface StoreHosting {

    /** Offers {@code store}, not yet readable: it is being restored. */
    void host(String name, BytesStore store);

    /** The stores are restored: queries may read them. */
    void ready();

    /** Withdraws the stores, waiting for the reads under way; called before they are closed. */
    void close();
}
