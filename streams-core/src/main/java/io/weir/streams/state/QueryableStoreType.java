package io.weir.streams.state;

/**
 * What kind of store {@code WeirStreams.store(name, type)} reads, and so what view it returns: {@link
 * #keyValueStore()} for tables and keyed processors' key-value stores, {@link #windowStore()} for
 * windowed aggregations (tumbling, hopping, sliding and global windows) and keyed processors' window
 * stores, {@link #sessionStore()} for session-window aggregations. Asking for a store with another
 * kind than its own is refused, naming the kind it is. Two types of the same kind are equal.
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
     *
     * @param <K> the store's key type
     * @param <V> the store's value type
     * @return the key-value store type
     */
    public static <K, V> QueryableStoreType<ReadOnlyKeyValueStore<K, V>> keyValueStore() {
        return new QueryableStoreType<>("key-value store");
    }

    /**
     * The store of a windowed aggregation other than sessions, or a keyed processor's window store
     * ({@code withRetention}), read as a {@link ReadOnlyWindowStore} of its key and value (aggregate)
     * types.
     *
     * @param <K> the store's key type
     * @param <V> the store's value type
     * @return the window store type
     */
    public static <K, V> QueryableStoreType<ReadOnlyWindowStore<K, V>> windowStore() {
        return new QueryableStoreType<>("window store");
    }

    /**
     * The store of a session-window aggregation, read as a {@link ReadOnlySessionStore} of its key and
     * value (aggregate) types.
     *
     * @param <K> the store's key type
     * @param <V> the store's value type
     * @return the session store type
     */
    public static <K, V> QueryableStoreType<ReadOnlySessionStore<K, V>> sessionStore() {
        return new QueryableStoreType<>("session store");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QueryableStoreType<?> other && description.equals(other.description);
    }

    @Override
    public int hashCode() {
        return description.hashCode();
    }

    @Override
    public String toString() {
        return description;
    }
}
