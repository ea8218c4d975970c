package io.weir.streams.internals.topology;

import io.weir.streams.internals.table.RowFormat;
import io.weir.streams.internals.table.TableRowCodec;
import io.weir.streams.state.QueryableStoreType;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * How the bytes of a queryable key-value store read as the user's keys and values: keys through the
 * key serde, with the store's name as the topic (as they were written); values as the store's {@link
 * RowFormat} says: through the value serde (a keyed processor's store), out of a table row ({@link
 * TableRowCodec}), or computed from the two rows a join holds. A format is made per read, since formats,
 * like the serdes inside them, belong to one thread.
 *
 * @param timestamped whether stored values carry their event time (every table's do)
 */
public record KeyValueView<K, V>(String store, Serde<K> keySerde, Supplier<RowFormat<K, V>> rows, boolean timestamped)
        implements StoreView {

    /** A keyed processor's store: values as the value serde wrote them, without times. */
    public static <K, V> KeyValueView<K, V> plain(String store, Serde<K> keySerde, Serde<V> valueSerde) {
        return new KeyValueView<>(store, keySerde, () -> new PlainValues<>(store, valueSerde), false);
    }

    /** A table's store: values inside its stored rows. */
    public static <K, V> KeyValueView<K, V> tableRows(String store, Serde<K> keySerde, Serde<V> valueSerde) {
        return new KeyValueView<>(store, keySerde, () -> RowFormat.of(new TableRowCodec<>(store, valueSerde)), true);
    }

    /** A store whose rows each task reads with {@code rows.get()}, such as a join's result. */
    public static <K, V> KeyValueView<K, V> rows(String store, Serde<K> keySerde, Supplier<RowFormat<K, V>> rows) {
        return new KeyValueView<>(store, keySerde, rows, true);
    }

    @Override
    public QueryableStoreType<?> type() {
        return QueryableStoreType.keyValueStore();
    }

    @Override
    public String typeCall() {
        return "QueryableStoreType.keyValueStore()";
    }

    /** The stored bytes of {@code key}. */
    public byte[] key(K key) {
        return keySerde.serializer().serialize(store, key);
    }

    /** The key stored as {@code stored}. */
    public K key(byte[] stored) {
        return keySerde.deserializer().deserialize(store, stored);
    }

    /** Values a serde wrote: no row around them, so no event time. */
    private record PlainValues<K, V>(String store, Serde<V> valueSerde) implements RowFormat<K, V> {

        @Override
        public @Nullable V value(K key, byte[] stored) {
            return valueSerde.deserializer().deserialize(store, stored);
        }

        @Override
        public long timestamp(byte[] stored) {
            throw new UnsupportedOperationException("Store '" + store + "' keeps no event times");
        }

        @Override
        public boolean sameValue(K key, byte @Nullable [] a, byte @Nullable [] b) {
            return Arrays.equals(a, b);
        }
    }
}
