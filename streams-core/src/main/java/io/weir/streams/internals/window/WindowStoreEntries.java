package io.weir.streams.internals.window;

import io.weir.streams.internals.state.ByteEntry;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.WindowKeys;
import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.state.WindowEntry;
import org.apache.kafka.common.serialization.Serde;

import java.util.ArrayList;
import java.util.List;

/** Reads the windows of a window store as typed entries, for the TestDriver's store inspection. */
public final class WindowStoreEntries {

    private WindowStoreEntries() {}

    /**
     * Every window held in {@code store} (the cache's view: committed and uncommitted writes), in
     * window-end order. Under discarding refinement a window holds only what arrived since its last pane.
     */
    public static <K, A> List<WindowEntry<K, A>> read(WriteBackCache store, Serde<K> keySerde, Serde<A> aggSerde) {
        String topic = store.name();
        WindowStateCodec<A> codec = new WindowStateCodec<>(topic, aggSerde);
        List<WindowEntry<K, A>> entries = new ArrayList<>();
        try (KeyValueIterator it = store.range(null, null)) {
            while (it.hasNext()) {
                ByteEntry e = it.next();
                K key = keySerde.deserializer().deserialize(topic, WindowKeys.key(e.key()));
                entries.add(new WindowEntry<>(
                        key, WindowKeys.window(e.key()), codec.decode(e.value()).aggregate()));
            }
        }
        return entries;
    }
}
