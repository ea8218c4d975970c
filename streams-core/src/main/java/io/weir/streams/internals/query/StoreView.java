package io.weir.streams.internals.query;

import io.weir.streams.state.QueryableStoreType;

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

    /** A view of the store over {@code copies}, of the kind {@link #type()} names. */
    Object query(StoreCopies copies);
}
