package io.weir.streams.internals.async;

import io.weir.streams.internals.operator.BufferedRecordCodec;
import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.state.ByteEntry;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.WriteBackCache;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The operator of {@code mapValuesAsync} and {@code flatMapValuesAsync}: calls out for each record ({@link
 * AsyncCalls}) and forwards each result (or each value of it), in order, with the record's key, event time
 * and headers.
 *
 * <p>Exactly-once: the task commits its input offsets past records whose calls are still in flight, so at
 * each commit this operator writes the records it holds to its store ({@code [sequence: 8]} to {@code [event
 * time: 8][the record as BufferedRecordCodec writes it]}), in the same transaction, and deletes those whose
 * results left since. A later owner of the task (after a crash, a rebalance or a restart) reads them back
 * when it starts and calls for them again, before any new record: calls are made at least once, results are
 * forwarded exactly once. Records that arrive and leave between two commits never touch the store.
 *
 * <p>Event time: the records it holds keep the watermark of the nodes below it under their event times
 * ({@link #watermarkHold()}), so a result forwarded late is never late because of the wait.
 *
 * <p>A call that finally fails goes to the topology's processing-error handler, as an exception thrown by
 * the operator for that record would. Single-threaded, like its task, apart from the calls' completions.
 */
public final class AsyncValuesProcessor<K, V, V2> implements Processor<K, V> {

    /**
     * What the operator needs: its store, its settings, the call, the serdes of the records it keeps, and
     * whether a call's answer is one value ({@code mapValuesAsync}) or an iterable of values, each forwarded
     * ({@code flatMapValuesAsync}; an empty or null one forwards nothing).
     */
    public record Settings<K, V, V2>(
            String store,
            AsyncSettings async,
            AsyncCalls.Call<K, V, V2> call,
            Serde<K> keySerde,
            Serde<V> valueSerde,
            boolean manyValues) {}

    private static final int TIME_BYTES = 8;

    private final Settings<K, V, V2> settings;
    private ProcessorContext context;
    private WriteBackCache store;
    private BufferedRecordCodec<K, V> codec;
    private AsyncCalls<K, V, V2> calls;
    /** The sequences of the held records the store holds as of the last commit. */
    private Set<Long> stored = new HashSet<>();

    public AsyncValuesProcessor(Settings<K, V, V2> settings) {
        this.settings = settings;
    }

    @Override
    public void init(ProcessorContext context) {
        this.context = context;
        this.store = context.stores().cache(settings.store());
        this.codec = new BufferedRecordCodec<>(settings.store(), settings.keySerde(), settings.valueSerde());
        Serializer<K> keys = settings.keySerde().serializer();
        this.calls = new AsyncCalls<>(
                settings.async(),
                settings.call(),
                key -> ByteBuffer.wrap(keys.serialize(settings.store(), key)),
                () -> {});
        callAgainForTheStored();
    }

    /**
     * The records an earlier owner held at its last commit: called for again, in their order, before any
     * new record; their store entries are rewritten at the next commit under this owner's sequences.
     */
    // A stored record's key and value are of the stream's types, which may hold null (a serde that wrote null);
    // NullAway's checks cannot say that a type argument is nullable, so they are off here.
    @SuppressWarnings("NullAway")
    private void callAgainForTheStored() {
        List<ByteEntry> entries = new ArrayList<>();
        try (KeyValueIterator it = store.range(null, null)) {
            while (it.hasNext()) {
                entries.add(it.next());
            }
        }
        for (ByteEntry entry : entries) {
            byte[] value = entry.value();
            long time = ByteBuffer.wrap(value, 0, TIME_BYTES).getLong();
            byte[] held = new byte[value.length - TIME_BYTES];
            System.arraycopy(value, TIME_BYTES, held, 0, held.length);
            BufferedRecordCodec.Decoded<K, V> decoded = codec.decode(held);
            store.delete(entry.key());
            calls.add(
                    new Record<>(decoded.key(), decoded.value(), time, decoded.headers(), null),
                    context.processingTime());
        }
    }

    @Override
    public void process(Record<K, V> record) {
        poll();
        calls.add(record, context.processingTime());
    }

    @Override
    public void onProcessingTime(long now) {
        poll();
    }

    @Override
    public void onBatchEnd() {
        poll();
    }

    @Override
    public void beforeCommit() {
        poll();
        Set<Long> held = new HashSet<>();
        calls.forEachHeld((sequence, record) -> {
            held.add(sequence);
            if (!stored.contains(sequence)) {
                store.put(key(sequence), encode(record));
            }
        });
        for (long sequence : stored) {
            if (!held.contains(sequence)) {
                store.delete(key(sequence));
            }
        }
        stored = held;
    }

    @Override
    public boolean holdsWatermark() {
        return true;
    }

    @Override
    public long watermarkHold() {
        return calls.hold();
    }

    @Override
    public boolean acceptsInput() {
        return calls.hasRoom();
    }

    @Override
    public void close() {
        calls.abandon();
    }

    // A result is of the new value type, which may hold null (a call that completes with null); NullAway's
    // checks cannot say that a type argument is nullable, so they are off here.
    @SuppressWarnings("NullAway")
    private void poll() {
        calls.poll(context.processingTime(), new AsyncCalls.Results<>() {
            @Override
            public void result(Record<K, V> record, @Nullable V2 result) {
                if (!settings.manyValues()) {
                    context.forward(record.withValue(result));
                } else if (result != null) {
                    forwardEach(record, (Iterable<?>) result);
                }
            }

            @Override
            public void failed(Record<K, V> record, Throwable error, int attempts) {
                context.failed(new AsyncCallFailedException(context.nodeName(), attempts, error), record);
            }
        });
    }

    /**
     * Forwards each value of a {@code flatMapValuesAsync} answer. An answer whose iteration throws goes to the
     * processing-error handler as the record's failure, as a synchronous {@code flatMapValues} whose iterable
     * throws does: the values before the throw have left. Only the iteration is caught here; what a
     * downstream operator throws is its own to decide.
     */
    private void forwardEach(Record<K, V> record, Iterable<?> answer) {
        Iterator<?> values;
        try {
            values = answer.iterator();
        } catch (RuntimeException e) {
            context.failed(e, record);
            return;
        }
        while (true) {
            Object value;
            try {
                if (!values.hasNext()) {
                    return;
                }
                value = values.next();
            } catch (RuntimeException e) {
                context.failed(e, record);
                return;
            }
            context.forward(record.withValue(value));
        }
    }

    private byte[] encode(Record<K, V> record) {
        byte[] held = codec.encode(record.key(), record.value(), record.headers());
        return ByteBuffer.allocate(TIME_BYTES + held.length)
                .putLong(record.timestamp())
                .put(held)
                .array();
    }

    private static byte[] key(long sequence) {
        return ByteBuffer.allocate(8).putLong(sequence).array();
    }
}
