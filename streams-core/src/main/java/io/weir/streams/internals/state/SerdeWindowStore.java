package io.weir.streams.internals.state;

import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.state.WindowStore;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.util.Arrays;

/**
 * A typed {@link WindowStore} over a task's byte store cache: store keys are {@link WindowKeys} with
 * the entry's time as both start and end, so entries sort by time and expiry by the watermark is one
 * range delete ({@link #purge}), as for window aggregations.
 */
public final class SerdeWindowStore<K, V> implements WindowStore<K, V> {

    private final WriteBackCache cache;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;
    private final long retention;
    private final Counter expiredPuts;
    private long expiredThrough = Long.MIN_VALUE;

    /**
     * @param retention   how long after its time (in event time) an entry is kept, in ms
     * @param expiredPuts counts the puts dropped because their time had expired
     */
    public SerdeWindowStore(
            WriteBackCache cache, Serde<K> keySerde, Serde<V> valueSerde, long retention, Counter expiredPuts) {
        this.cache = cache;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.retention = retention;
        this.expiredPuts = expiredPuts;
    }

    /** Deletes every entry whose time plus the retention the watermark has reached. */
    public void purge(long watermark) {
        if (watermark == Long.MIN_VALUE) {
            return;
        }
        long through = TimeMath.minus(watermark, retention);
        if (through <= expiredThrough) {
            return;
        }
        expiredThrough = through;
        cache.deleteRange(null, through == Long.MAX_VALUE ? null : WindowKeys.endBound(through + 1));
    }

    @Override
    public void put(K key, @Nullable V value, long time) {
        if (time == Long.MAX_VALUE) {
            throw new IllegalArgumentException("Window store '" + cache.name() + "' cannot hold an entry at "
                    + "Long.MAX_VALUE, which stands for the end of input");
        }
        if (time <= expiredThrough) {
            expiredPuts.increment();
            return;
        }
        if (value == null) {
            delete(key, time);
            return;
        }
        cache.put(storeKey(key, time), valueSerde.serializer().serialize(cache.name(), value));
    }

    @Override
    public @Nullable V fetch(K key, long time) {
        byte[] value = cache.get(storeKey(key, time));
        return value == null ? null : valueSerde.deserializer().deserialize(cache.name(), value);
    }

    @Override
    public void fetch(K key, long timeFrom, long timeTo, Entries<? super K, ? super V> action) {
        byte[] keyBytes = keyBytes(key);
        scan(timeFrom, timeTo, keyBytes, action);
    }

    @Override
    public void fetchAll(long timeFrom, long timeTo, Entries<? super K, ? super V> action) {
        scan(timeFrom, timeTo, null, action);
    }

    @Override
    public void delete(K key, long time) {
        cache.delete(storeKey(key, time));
    }

    private void scan(long from, long to, byte @Nullable [] onlyKey, Entries<? super K, ? super V> action) {
        if (from > to) {
            return;
        }
        byte[] upper = to == Long.MAX_VALUE ? null : WindowKeys.endBound(to + 1);
        try (KeyValueIterator it = cache.range(WindowKeys.endBound(from), upper)) {
            while (it.hasNext()) {
                ByteEntry entry = it.next();
                byte[] keyBytes = WindowKeys.key(entry.key());
                if (onlyKey != null && !Arrays.equals(onlyKey, keyBytes)) {
                    continue;
                }
                action.accept(
                        keySerde.deserializer().deserialize(cache.name(), keyBytes),
                        WindowKeys.end(entry.key()),
                        valueSerde.deserializer().deserialize(cache.name(), entry.value()));
            }
        }
    }

    private byte[] storeKey(K key, long time) {
        return WindowKeys.encode(time, time, keyBytes(key));
    }

    private byte[] keyBytes(K key) {
        if (key == null) {
            throw new IllegalArgumentException("Store '" + cache.name() + "' takes no null key");
        }
        return keySerde.serializer().serialize(cache.name(), key);
    }
}
