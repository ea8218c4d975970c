package io.weir.streams.internals.state;

import io.weir.streams.state.KeyValueStore;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.util.function.BiConsumer;

/** A typed {@link KeyValueStore} over a task's byte store cache, with the store's serdes. */
public final class SerdeKeyValueStore<K, V> implements KeyValueStore<K, V> {

    private final WriteBackCache cache;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;

    public SerdeKeyValueStore(WriteBackCache cache, Serde<K> keySerde, Serde<V> valueSerde) {
        this.cache = cache;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
    }

    @Override
    public @Nullable V get(K key) {
        byte[] value = cache.get(keyBytes(key));
        return value == null ? null : valueSerde.deserializer().deserialize(cache.name(), value);
    }

    @Override
    public void put(K key, @Nullable V value) {
        if (value == null) {
            delete(key);
            return;
        }
        cache.put(keyBytes(key), valueSerde.serializer().serialize(cache.name(), value));
    }

    @Override
    public void delete(K key) {
        cache.delete(keyBytes(key));
    }

    @Override
    public void forEach(BiConsumer<? super K, ? super V> action) {
        scan(null, null, action);
    }

    @Override
    public void range(@Nullable K from, @Nullable K to, BiConsumer<? super K, ? super V> action) {
        scan(from == null ? null : keyBytes(from), to == null ? null : keyBytes(to), action);
    }

    @Override
    public <P> void prefixScan(P prefix, Serializer<P> prefixSerializer, BiConsumer<? super K, ? super V> action) {
        byte[] from = prefixSerializer.serialize(cache.name(), prefix);
        scan(from, Bytes.prefixEnd(from), action);
    }

    private void scan(byte @Nullable [] from, byte @Nullable [] to, BiConsumer<? super K, ? super V> action) {
        try (KeyValueIterator it = cache.range(from, to)) {
            while (it.hasNext()) {
                ByteEntry entry = it.next();
                action.accept(
                        keySerde.deserializer().deserialize(cache.name(), entry.key()),
                        valueSerde.deserializer().deserialize(cache.name(), entry.value()));
            }
        }
    }

    private byte[] keyBytes(K key) {
        if (key == null) {
            throw new IllegalArgumentException("Store '" + cache.name() + "' takes no null key");
        }
        return keySerde.serializer().serialize(cache.name(), key);
    }
}
