package io.weir.streams.internals.topology;

import io.weir.streams.state.QueryableStoreType;

/**
 * How queries read one queryable store: the kind of view it gives ({@link #type()}) and how its bytes
 * read as the user's keys, windows and values. A {@code StoreSpec} carries one for each store users may
 * query; the query side ({@code query.Serving}) chooses the queries that read a store from it.
 */
public sealed interface StoreView permits KeyValueView, WindowView {

    /** The store's name. */
    String store();

    /** The type a caller asks for to read this store: its kind. */
    QueryableStoreType<?> type();

    /** The call that gives {@link #type()}, for errors that tell the caller what to ask for. */
    String typeCall();
}
