package io.weir.streams.internals.async;

import io.weir.streams.internals.operator.BufferedRecordCodec;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.state.ByteEntry;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.WriteBackCache;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What an asynchronous operator keeps in its store at each commit, for a later owner of its task (after a
 * crash, a rebalance or a restart): the records it holds, and, for an operator with watermark barriers, the
 * watermark it had delivered and the advances still queued behind held records.
 *
 * <p>The task commits its input offsets past held records, so they must be in the same transaction. A record
 * is {@code [sequence: 8]} to {@code [event time: 8][the record as BufferedRecordCodec writes it]}; records
 * that arrive and leave between two commits never touch the store. The watermarks are one entry, {@code
 * [0]} to {@code [delivered: 8][count: 4]} and {@code count} times {@code [held records before it: 4][watermark:
 * 8]}, written when it changed. Single-threaded, like its task.
 */
public final class HeldRecordStore<K, V> {

    private static final int TIME_BYTES = 8;
    private static final int SEQUENCE_BYTES = 8;
    private static final byte[] WATERMARKS_KEY = {0};

    private final WriteBackCache store;
    private final BufferedRecordCodec<K, V> codec;
    /** The sequences of the held records the store holds as of the last commit. */
    private Set<Long> stored = new HashSet<>();

    private byte @Nullable [] storedWatermarks;

    public HeldRecordStore(WriteBackCache store, BufferedRecordCodec<K, V> codec) {
        this.store = store;
        this.codec = codec;
    }

    /** The store {@code name} of the task {@code context} runs in, keeping records with these serdes. */
    public static <K, V> HeldRecordStore<K, V> open(
            ProcessorContext context, String name, Serde<K> keySerde, Serde<V> valueSerde) {
        return new HeldRecordStore<>(
                context.stores().cache(name), new BufferedRecordCodec<>(name, keySerde, valueSerde));
    }

    /**
     * Adds to {@code calls} what an earlier owner held at its last commit, in its order: each record, called
     * for again, and each queued watermark advance in its place among them. Their entries are rewritten at
     * the next commit under this owner's sequences.
     *
     * @return the watermark the earlier owner had delivered, when it kept one
     */
    // A stored record's key and value are of the stream's types, which may hold null (a serde that wrote null);
    // NullAway's checks cannot say that a type argument is nullable, so they are off here.
    @SuppressWarnings("NullAway")
    public OptionalLong restoreInto(AsyncCalls<K, V, ?> calls, long now) {
        List<ByteEntry> records = new ArrayList<>();
        byte @Nullable [] watermarks = null;
        try (KeyValueIterator it = store.range(null, null)) {
            while (it.hasNext()) {
                ByteEntry entry = it.next();
                if (entry.key().length == SEQUENCE_BYTES) {
                    records.add(entry);
                } else if (Arrays.equals(entry.key(), WATERMARKS_KEY)) {
                    watermarks = entry.value();
                }
            }
        }
        storedWatermarks = watermarks;
        ByteBuffer queued = ByteBuffer.wrap(watermarks == null ? new byte[TIME_BYTES + 4] : watermarks);
        long delivered = queued.getLong();
        int pending = queued.getInt();
        for (int i = 0; i <= records.size(); i++) {
            while (pending > 0 && queued.getInt(queued.position()) == i) {
                queued.getInt();
                calls.addBarrier(queued.getLong());
                pending--;
            }
            if (i == records.size()) {
                break;
            }
            ByteEntry entry = records.get(i);
            byte[] value = entry.value();
            long time = ByteBuffer.wrap(value, 0, TIME_BYTES).getLong();
            byte[] held = Arrays.copyOfRange(value, TIME_BYTES, value.length);
            BufferedRecordCodec.Decoded<K, V> decoded = codec.decode(held);
            store.delete(entry.key());
            calls.add(new Record<>(decoded.key(), decoded.value(), time, decoded.headers(), null), now);
        }
        return watermarks == null ? OptionalLong.empty() : OptionalLong.of(delivered);
    }

    /** Writes the records {@code calls} holds that the store lacks, and deletes those that left since. */
    public void commit(AsyncCalls<K, V, ?> calls) {
        Set<Long> held = new HashSet<>();
        calls.forEachHeld((sequence, record) -> {
            held.add(sequence);
            if (!stored.contains(sequence)) {
                store.put(sequenceKey(sequence), encode(record));
            }
        });
        for (long sequence : stored) {
            if (!held.contains(sequence)) {
                store.delete(sequenceKey(sequence));
            }
        }
        stored = held;
    }

    /** Writes the watermark delivered and the advances queued, unless the store has them already. */
    public void commitWatermarks(long delivered, List<AsyncCalls.PendingWatermark> pending) {
        ByteBuffer value = ByteBuffer.allocate(TIME_BYTES + 4 + pending.size() * (4 + TIME_BYTES));
        value.putLong(delivered).putInt(pending.size());
        for (AsyncCalls.PendingWatermark p : pending) {
            value.putInt(p.heldBefore()).putLong(p.watermark());
        }
        byte[] bytes = value.array();
        if (!Arrays.equals(bytes, storedWatermarks)) {
            store.put(WATERMARKS_KEY, bytes);
            storedWatermarks = bytes;
        }
    }

    private byte[] encode(Record<K, V> record) {
        byte[] held = codec.encode(record.key(), record.value(), record.headers());
        return ByteBuffer.allocate(TIME_BYTES + held.length)
                .putLong(record.timestamp())
                .put(held)
                .array();
    }

    private static byte[] sequenceKey(long sequence) {
        return ByteBuffer.allocate(SEQUENCE_BYTES).putLong(sequence).array();
    }
}
