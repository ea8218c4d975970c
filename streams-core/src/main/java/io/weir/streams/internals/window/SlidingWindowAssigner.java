package io.weir.streams.internals.window;

import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.operator.Aggregation;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.state.ByteEntry;
import io.weir.streams.internals.state.Bytes;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.time.Window;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Sliding windows as Kafka Streams defines them (see {@code SlidingWindows}): with time difference
 * {@code d}, every record {@code r} has a left window {@code [r - d, r]}, and a right window
 * {@code [r + 1, r + 1 + d]} when another record follows within {@code d}. Windows are stored as
 * {@code [start, start + d + 1)}.
 *
 * <p>Which windows exist depends on the key's other records, so this assigner keeps the records of
 * each key (values by event time) in its own store while a window could still need them: a record at
 * {@code t} can enter windows ending by {@code t + d + 1}, which accept records until the watermark
 * reaches {@code t + d + L}, and it decides whether its right window, ending at {@code t + d + 2},
 * exists, which accepts records until {@code t + d + 1 + L}. A new window starts from the fold of
 * the kept records it covers; an existing one just adds the new record. A record's right window does
 * not hold the record: it is only created, from the kept records that follow it
 * ({@link #windowsCreatedBy}).
 *
 * <p>Store layout: {@code [0][key length][key][t]} holds the values at {@code t}, and the time index
 * {@code [1][t][key length][key]} finds what to purge without scanning every key.
 */
final class SlidingWindowAssigner<K, V, A> implements WindowAssigner<K, V, A> {

    private static final byte RECORDS = 0;
    private static final byte INDEX = 1;

    private final long difference;
    private final long allowedLateness;
    private final String storeName;
    private final Serializer<V> valueSerializer;
    private final Deserializer<V> valueDeserializer;

    private WriteBackCache store;
    /** The kept records of the current record's key near its time, read once per record. */
    private NavigableMap<Long, List<V>> nearby = new TreeMap<>();

    private long purgedUpTo = Long.MIN_VALUE;

    SlidingWindowAssigner(long difference, long allowedLateness, String storeName, Serde<V> valueSerde) {
        this.difference = difference;
        this.allowedLateness = allowedLateness;
        this.storeName = storeName;
        this.valueSerializer = valueSerde.serializer();
        this.valueDeserializer = valueSerde.deserializer();
    }

    @Override
    public void init(ProcessorContext context) {
        store = context.stores().cache(storeName);
    }

    @Override
    public List<WindowAssignment> assign(K key, byte[] keyBytes, long t) {
        // Every bound saturates and is inclusive: near the end of time t + difference passes Long.MAX_VALUE.
        long before = TimeMath.minus(TimeMath.minus(t, difference), 1);
        nearby = read(keyBytes, before, TimeMath.plus(TimeMath.plus(t, difference), 1));
        TreeMap<Long, WindowAssignment> windows = new TreeMap<>();
        addWindow(windows, TimeMath.minus(t, difference));
        for (long r :
                nearby.subMap(before, true, TimeMath.plus(t, difference), true).keySet()) {
            if (r >= t) {
                addWindow(windows, TimeMath.minus(r, difference));
            } else if (hasRecordIn(r + 1, TimeMath.plus(r, difference), t)) {
                addWindow(windows, r + 1);
            }
        }
        return new ArrayList<>(windows.values());
    }

    /** The record's right window, when a kept record follows it within the difference: it does not hold the record. */
    @Override
    public List<Window> windowsCreatedBy(long t) {
        // No record is at Long.MAX_VALUE (the end of input), so a record there has no right window.
        return t < Long.MAX_VALUE && hasRecordIn(t + 1, TimeMath.plus(t, difference), t)
                ? List.of(window(t + 1))
                : List.of();
    }

    /** Whether a kept record, or the new one at {@code newRecord}, has event time in {@code [from, to]}. */
    private boolean hasRecordIn(long from, long to, long newRecord) {
        return from <= to
                && ((newRecord >= from && newRecord <= to)
                        || !nearby.subMap(from, true, to, true).isEmpty());
    }

    private void addWindow(NavigableMap<Long, WindowAssignment> windows, long start) {
        windows.put(start, WindowAssignment.of(window(start)));
    }

    private Window window(long start) {
        return new Window(start, TimeMath.plus(TimeMath.plus(start, difference), 1));
    }

    @Override
    public @Nullable A initial(K key, Window window, Aggregation<K, V, A> aggregation) {
        A aggregate = aggregation.initial();
        for (List<V> values :
                nearby.subMap(window.start(), true, window.maxTimestamp(), true).values()) {
            for (V value : values) {
                aggregate = aggregation.add(key, value, aggregate);
            }
        }
        return aggregate;
    }

    @Override
    public void offered(byte[] keyBytes, Record<K, V> record, long watermark) {
        long t = record.timestamp();
        if (watermark >= neededUntil(t)) {
            return;
        }
        byte[] recordKey = recordKey(keyBytes, t);
        byte[] existing = store.get(recordKey);
        byte[] value = valueSerializer.serialize(storeName, record.value());
        int valueLength = value == null ? -1 : value.length;
        int existingLength = existing == null ? 4 : existing.length;
        ByteBuffer buffer = ByteBuffer.allocate(existingLength + 4 + Math.max(valueLength, 0));
        if (existing == null) {
            buffer.putInt(1);
        } else {
            buffer.put(existing).putInt(0, ByteBuffer.wrap(existing).getInt() + 1);
        }
        buffer.putInt(valueLength);
        if (value != null) {
            buffer.put(value);
        }
        store.put(recordKey, buffer.array());
        store.put(indexKey(t, keyBytes), new byte[0]);
    }

    /**
     * From this watermark on no window needs a record at {@code t}: the last one that does, its right
     * window {@code [t + 1, t + d + 2)}, is past its allowed lateness.
     */
    private long neededUntil(long t) {
        return TimeMath.plus(TimeMath.plus(TimeMath.plus(t, difference), 1), allowedLateness);
    }

    @Override
    public void purge(long watermark) {
        long cutoff = watermark == Long.MAX_VALUE
                ? Long.MAX_VALUE
                : TimeMath.minus(TimeMath.minus(TimeMath.minus(watermark, difference), 1), allowedLateness);
        if (cutoff <= purgedUpTo) {
            return;
        }
        byte[] from = timeBound(purgedUpTo == Long.MIN_VALUE ? Long.MIN_VALUE : purgedUpTo + 1);
        byte[] to = cutoff == Long.MAX_VALUE ? new byte[] {INDEX + 1} : timeBound(cutoff + 1);
        try (KeyValueIterator it = store.range(from, to)) {
            while (it.hasNext()) {
                ByteEntry entry = it.next();
                ByteBuffer index = ByteBuffer.wrap(entry.key());
                index.get();
                long t = index.getLong() ^ Long.MIN_VALUE;
                byte[] key = new byte[index.getInt()];
                index.get(key);
                store.delete(recordKey(key, t));
            }
        }
        store.deleteRange(from, to);
        purgedUpTo = cutoff;
    }

    /** The kept records of a key with event time in {@code [from, to]}. */
    private NavigableMap<Long, List<V>> read(byte[] keyBytes, long from, long to) {
        TreeMap<Long, List<V>> records = new TreeMap<>();
        byte[] end = to == Long.MAX_VALUE ? Bytes.prefixEnd(recordPrefix(keyBytes)) : recordKey(keyBytes, to + 1);
        try (KeyValueIterator it = store.range(recordKey(keyBytes, from), end)) {
            while (it.hasNext()) {
                ByteEntry entry = it.next();
                long t = ByteBuffer.wrap(entry.key(), entry.key().length - 8, 8).getLong() ^ Long.MIN_VALUE;
                ByteBuffer values = ByteBuffer.wrap(entry.value());
                int n = values.getInt();
                List<V> list = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    int length = values.getInt();
                    byte[] bytes = null;
                    if (length >= 0) {
                        bytes = new byte[length];
                        values.get(bytes);
                    }
                    list.add(valueDeserializer.deserialize(storeName, bytes));
                }
                records.put(t, list);
            }
        }
        return records;
    }

    private static byte[] recordKey(byte[] keyBytes, long t) {
        return ByteBuffer.allocate(1 + 4 + keyBytes.length + 8)
                .put(recordPrefix(keyBytes))
                .putLong(t ^ Long.MIN_VALUE)
                .array();
    }

    private static byte[] recordPrefix(byte[] keyBytes) {
        return ByteBuffer.allocate(1 + 4 + keyBytes.length)
                .put(RECORDS)
                .putInt(keyBytes.length)
                .put(keyBytes)
                .array();
    }

    private static byte[] indexKey(long t, byte[] keyBytes) {
        return ByteBuffer.allocate(1 + 8 + 4 + keyBytes.length)
                .put(INDEX)
                .putLong(t ^ Long.MIN_VALUE)
                .putInt(keyBytes.length)
                .put(keyBytes)
                .array();
    }

    private static byte[] timeBound(long t) {
        return ByteBuffer.allocate(9).put(INDEX).putLong(t ^ Long.MIN_VALUE).array();
    }
}
