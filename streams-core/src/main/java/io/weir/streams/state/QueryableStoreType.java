package io.weir.streams.state;

import java.util.Locale;

/**
 * What kind of store {@code WeirStreams.store(name, type)} reads, and so what view it returns: {@link
 * #keyValueStore()} for tables and keyed processors' key-value stores.
 *
 * @param <T> the view a query gets
 */
// T is used only by the type checker: it ties store(name, type) to the view it returns.
@SuppressWarnings("UnusedTypeParameter")
public final class QueryableStoreType<T> {

    /** The kinds of queryable stores. */
    public enum Kind {
        /** Tables (topic tables, aggregations without windows, joins that give tables) and key-value stores. */
        KEY_VALUE
    }

    private final Kind kind;

    private QueryableStoreType(Kind kind) {
        this.kind = kind;
    }

    /**
     * A table's or a keyed processor's key-value store, read as a {@link ReadOnlyKeyValueStore} of its key
     * and value types.
     */
    public static <K, V> QueryableStoreType<ReadOnlyKeyValueStore<K, V>> keyValueStore() {
        return new QueryableStoreType<>(Kind.KEY_VALUE);
    }

    public Kind kind() {
        return kind;
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(Locale.ROOT).replace('_', '-') + " store";
    }
}
