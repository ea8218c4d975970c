package io.weir.streams.internals.query;

import io.weir.streams.state.QueryableStoreType;

import java.util.function.BooleanSupplier;

/**
 * How queries read one queryable store: the kind of view it gives ({@link #type()}) and how its bytes
 * read as the user's keys, windows and values. A {@code StoreSpec} carries one for each store users may
 * query.
 */
public sealed interface StoreView permits KeyValueView, WindowView {

    /** The store's name. */
    String store();

    /** The type a caller asks for to read this store: its kind. */
    QueryableStoreType<?> type();

    /** The call that gives {@link #type()}, for errors that tell the caller what to ask for. */
    String typeCall();

    /**
     * A view of the store over the copies in {@code local}, of the kind {@link #type()} names.
     *
     * @param stopped whether the application has stopped or failed, so that no copy will come back
     */
    Object query(LocalStores local, BooleanSupplier stopped);
}
