package io.weir.streams.internals.query;

import io.weir.streams.internals.table.TableRowCodec;
import io.weir.streams.state.QueryableStoreType;
import org.apache.kafka.common.serialization.Serde;

/**
 * How the bytes of a queryable key-value store read as the user's keys and values: keys through the
 * key serde, with the store's name as the topic (as they were written); values through the value serde,
 * or, for a table's store, out of its stored rows ({@link TableRowCodec}).
 */
public record KeyValueView<K, V>(String store, Serde<K> keySerde, ValueReader<V> values) implements StoreView {

    /** A keyed processor's store: values as the value serde wrote them. */
    public static <K, V> KeyValueView<K, V> plain(String store, Serde<K> keySerde, Serde<V> valueSerde) {
        return new KeyValueView<>(
                store, keySerde, stored -> valueSerde.deserializer().deserialize(store, stored));
    }

    /** A table's store: values inside its stored rows. */
    public static <K, V> KeyValueView<K, V> tableRows(String store, Serde<K> keySerde, Serde<V> valueSerde) {
        TableRowCodec<V> rows = new TableRowCodec<>(store, valueSerde);
        return new KeyValueView<>(store, keySerde, stored -> rows.decode(stored).value());
    }

    @Override
    public QueryableStoreType<?> type() {
        return QueryableStoreType.keyValueStore();
    }

    @Override
    public String typeCall() {
        return "QueryableStoreType.keyValueStore()";
    }

    @Override
    public KeyValueQuery<K, V> query(StoreCopies copies) {
        return new KeyValueQuery<>(this, copies);
    }

    byte[] key(K key) {
        return keySerde.serializer().serialize(store, key);
    }

    K key(byte[] stored) {
        return keySerde.deserializer().deserialize(store, stored);
    }
}
