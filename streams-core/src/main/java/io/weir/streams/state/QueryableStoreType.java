package io.weir.streams.state;

/**
 * What kind of store {@code WeirStreams.store(name, type)} reads, and so what view it returns: {@link
 * #keyValueStore()} for tables and keyed processors' key-value stores.
 *
 * @param <T> the view a query gets
 */
// T is used only by the type checker: it ties store(name, type) to the view it returns.
@SuppressWarnings("UnusedTypeParameter")
public final class QueryableStoreType<T> {

    private final String description;

    private QueryableStoreType(String description) {
        this.description = description;
    }

    /**
     * A table's or a keyed processor's key-value store, read as a {@link ReadOnlyKeyValueStore} of its key
     * and value types.
     */
    public static <K, V> QueryableStoreType<ReadOnlyKeyValueStore<K, V>> keyValueStore() {
        return new QueryableStoreType<>("key-value store");
    }

    @Override
    public String toString() {
        return description;
    }
}
