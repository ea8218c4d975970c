package io.weir.streams.internals.table;

import io.weir.streams.internals.state.ByteEntry;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.WriteBackCache;
import org.apache.kafka.common.serialization.Serde;

import java.util.LinkedHashMap;
import java.util.Map;

/** Reads the rows of a table's store as typed entries, for the TestDriver's store inspection. */
public final class TableEntries {

    private TableEntries() {}

    /**
     * Every row held in {@code store} (the cache's view: committed and uncommitted writes), in key-byte
     * order; a versioned table's latest deletes are not rows.
     */
    public static <K, V> Map<K, V> read(WriteBackCache store, Serde<K> keySerde, Serde<V> valueSerde) {
        String topic = store.name();
        TableRowCodec<V> codec = new TableRowCodec<>(topic, valueSerde);
        Map<K, V> rows = new LinkedHashMap<>();
        try (KeyValueIterator it = store.range(null, null)) {
            while (it.hasNext()) {
                ByteEntry e = it.next();
                V value = codec.decode(e.value()).value();
                if (value != null) {
                    rows.put(keySerde.deserializer().deserialize(topic, e.key()), value);
                }
            }
        }
        return rows;
    }
}
