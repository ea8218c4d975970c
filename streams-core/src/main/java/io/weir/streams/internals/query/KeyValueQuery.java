package io.weir.streams.internals.query;

import io.weir.streams.internals.state.Bytes;
import io.weir.streams.internals.table.RowFormat;
import io.weir.streams.internals.topology.KeyValueView;
import io.weir.streams.state.ReadOnlyKeyValueStore;
import io.weir.streams.state.StoreUnavailableException.Reason;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.util.function.BiConsumer;

/**
 * A query of a key-value store over every copy this instance holds (one per task, each a partition of
 * the store), reading their committed state only: a value written by a transaction that has not
 * committed, or that aborts, is never seen. A point read asks each copy until one has the key (a key
 * lives in one partition); a scan merges the copies in serialized-key order, reading each in batches
 * with no copy held while the action runs ({@link StoreCopies}).
 *
 * <p>A copy that is restoring makes a scan fail, and a point read that no other copy answers, with
 * {@link Reason#RESTORING}: an answer without it could be wrong. With no copy here the query fails
 * with {@link Reason#NOT_LOCAL}, after the application stopped with {@link Reason#NOT_RUNNING}
 * ({@link StoreCopies}). Thread-safe.
 */
public final class KeyValueQuery<K, V> implements ReadOnlyKeyValueStore<K, V> {

    private final KeyValueView<K, V> view;
    private final StoreCopies copies;

    KeyValueQuery(KeyValueView<K, V> view, StoreCopies copies) {
        this.view = view;
        this.copies = copies;
    }

    @Override
    public @Nullable V get(K key) {
        byte[] stored = copies.get(view.key(key));
        return stored == null ? null : view.rows().get().value(key, stored);
    }

    @Override
    public void forEach(BiConsumer<? super K, ? super V> action) {
        scan(null, null, action);
    }

    @Override
    public void range(@Nullable K from, @Nullable K to, BiConsumer<? super K, ? super V> action) {
        scan(from == null ? null : view.key(from), to == null ? null : view.key(to), action);
    }

    @Override
    public <P> void prefixScan(P prefix, Serializer<P> prefixSerializer, BiConsumer<? super K, ? super V> action) {
        byte[] from = prefixSerializer.serialize(view.store(), prefix);
        scan(from, Bytes.prefixEnd(from), action);
    }

    private void scan(byte @Nullable [] from, byte @Nullable [] to, BiConsumer<? super K, ? super V> action) {
        RowFormat<K, V> rows = view.rows().get();
        copies.scan(from, to, entry -> {
            K key = view.key(entry.key());
            V value = rows.value(key, entry.value());
            if (value != null) {
                action.accept(key, value);
            }
        });
    }
}
