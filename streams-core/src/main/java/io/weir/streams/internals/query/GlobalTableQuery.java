package io.weir.streams.internals.query;

import io.weir.streams.state.ReadOnlyKeyValueStore;
import io.weir.streams.state.StoreUnavailableException;
import io.weir.streams.state.StoreUnavailableException.Reason;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * A query of a global table: every instance holds the whole table, so every key is answered here. Reads
 * see what the global store has applied, which is committed data only. Before the table's bootstrap has
 * read the topic up to its end the store is incomplete, and a read fails with {@link Reason#RESTORING};
 * after the application stopped, with {@link Reason#NOT_RUNNING}. Thread-safe.
 */
final class GlobalTableQuery<K, V> implements ReadOnlyKeyValueStore<K, V> {

    private final String name;
    private final Supplier<@Nullable ReadOnlyKeyValueStore<K, V>> store;
    private final BooleanSupplier stopped;

    /** @param store the store's view once bootstrapped, null before and after the application runs */
    GlobalTableQuery(String name, Supplier<@Nullable ReadOnlyKeyValueStore<K, V>> store, BooleanSupplier stopped) {
        this.name = name;
        this.store = store;
        this.stopped = stopped;
    }

    private ReadOnlyKeyValueStore<K, V> store() {
        if (stopped.getAsBoolean()) {
            throw new StoreUnavailableException(
                    name, Reason.NOT_RUNNING, "Global table '" + name + "': the application has stopped");
        }
        ReadOnlyKeyValueStore<K, V> s = store.get();
        if (s == null) {
            throw new StoreUnavailableException(
                    name, Reason.RESTORING, "Global table '" + name + "' is still reading its topic up to the end");
        }
        return s;
    }

    @Override
    public @Nullable V get(K key) {
        return store().get(key);
    }

    @Override
    public void forEach(BiConsumer<? super K, ? super V> action) {
        store().forEach(action);
    }

    @Override
    public void range(@Nullable K from, @Nullable K to, BiConsumer<? super K, ? super V> action) {
        store().range(from, to, action);
    }

    @Override
    public <P> void prefixScan(P prefix, Serializer<P> prefixSerializer, BiConsumer<? super K, ? super V> action) {
        store().prefixScan(prefix, prefixSerializer, action);
    }
}
