package io.weir.streams.internals.global;

import io.weir.streams.dsl.Consumed;
import io.weir.streams.errors.ErrorDecision;
import io.weir.streams.errors.RecordError;
import io.weir.streams.internals.Redaction;
import io.weir.streams.internals.state.ByteEntry;
import io.weir.streams.internals.state.Bytes;
import io.weir.streams.internals.state.BytesStore;
import io.weir.streams.internals.state.InMemoryBytesStore;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.StoreBatch;
import io.weir.streams.internals.state.StoreOpener;
import io.weir.streams.internals.table.TableRow;
import io.weir.streams.internals.table.TableRowCodec;
import io.weir.streams.internals.topology.GlobalTableSpec;
import io.weir.streams.state.ReadOnlyKeyValueStore;
import io.weir.streams.state.StoreType;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BiConsumer;

/**
 * The store of one global table: the whole topic, kept current by one writer (the global thread, or
 * the TestDriver) and read by every task through {@link #view()}. It stores what a topic table stores
 * (the record's key bytes as read; a table row with its value bytes and event time; a tombstone
 * deletes), and with each batch the next offset of each partition it has applied, in the same write,
 * so a restart resumes exactly where the store is. A record whose key or value does not deserialize,
 * or whose event time cannot be read, goes to the source's error handler: {@code CONTINUE} skips it
 * (counted), {@code FAIL} fails the writer; a global table has no producer to dead-letter with, so
 * that decision fails too, saying so. A record with a null key is skipped and counted.
 *
 * <p>Thread-safe: writes and reads take a read-write lock (an in-memory store is not safe for a
 * concurrent writer); typed reads copy entries out before calling user code, which never runs under
 * the lock.
 */
public final class GlobalStore<K, V> implements AutoCloseable {

    private static final String OFFSET_PREFIX = "global-offset-";

    private final GlobalTableSpec spec;
    private final BytesStore store;
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Deserializer<K> keyDeserializer;
    private final Serializer<K> keySerializer;
    private final Deserializer<V> valueDeserializer;
    private final Consumed<K, V> consumed;
    private final TableRowCodec<V> codec;
    private final AtomicLong skipped = new AtomicLong();
    private final ReadOnlyKeyValueStore<K, V> view;

    @SuppressWarnings("unchecked")
    private GlobalStore(GlobalTableSpec spec, BytesStore store) {
        this.spec = spec;
        this.store = store;
        this.consumed = (Consumed<K, V>) spec.consumed();
        this.keyDeserializer = consumed.keySerde().deserializer();
        this.keySerializer = consumed.keySerde().serializer();
        this.valueDeserializer = consumed.valueSerde().deserializer();
        this.codec = new TableRowCodec<>(spec.storeName(), consumed.valueSerde());
        this.view = new View(Long.MAX_VALUE);
    }

    /** Opens the store of {@code spec} under {@code dir} (RocksDB, with {@code opener}) or in memory. */
    public static GlobalStore<?, ?> open(GlobalTableSpec spec, Path dir, StoreOpener opener) {
        BytesStore store = spec.storeType() == StoreType.ROCKSDB
                ? opener.open(spec.storeName(), dir.resolve(spec.storeName()))
                : InMemoryBytesStore.create(spec.storeName());
        return new GlobalStore<>(spec, store);
    }

    public GlobalTableSpec spec() {
        return spec;
    }

    /** The next offset of {@code partition} the store has not applied; null when it has applied none. */
    public @Nullable Long nextOffset(int partition) {
        lock.readLock().lock();
        try {
            byte[] stored = store.metadata(OFFSET_PREFIX + partition);
            return stored == null ? null : ByteBuffer.wrap(stored).getLong();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** One record of the topic, as read. */
    public record Raw(
            int partition,
            long offset,
            byte @Nullable [] key,
            byte @Nullable [] value,
            Headers headers,
            long timestamp) {}

    /**
     * Applies {@code records} of {@code partition} and notes {@code nextOffset} as its next offset, in one
     * write.
     *
     * @throws RecordError if a record cannot be read and the handler decides to fail (or to dead-letter)
     */
    public void apply(int partition, List<Raw> records, long nextOffset) {
        StoreBatch batch = new StoreBatch();
        for (Raw r : records) {
            StoreBatch.Put put = row(r);
            if (put != null) {
                batch.put(put.key(), put.value());
            }
        }
        batch.putMetadata(
                OFFSET_PREFIX + partition,
                ByteBuffer.allocate(8).putLong(nextOffset).array());
        lock.writeLock().lock();
        try {
            store.write(batch);
        } finally {
            lock.writeLock().unlock();
        }
    }

    private StoreBatch.@Nullable Put row(Raw r) {
        K key;
        V value;
        long eventTime;
        try {
            key = keyDeserializer.deserialize(spec.topic(), r.headers(), r.key());
        } catch (RuntimeException e) {
            return reject(r, RecordError.Reason.KEY_DESERIALIZATION, Redaction.describe(e), e);
        }
        try {
            value = valueDeserializer.deserialize(spec.topic(), r.headers(), r.value());
        } catch (RuntimeException e) {
            return reject(r, RecordError.Reason.VALUE_DESERIALIZATION, Redaction.describe(e), e);
        }
        try {
            eventTime = consumed.timestampExtractor().extract(key, value, r.timestamp());
        } catch (RuntimeException e) {
            return reject(
                    r,
                    RecordError.Reason.INVALID_EVENT_TIME,
                    "the timestamp extractor failed: " + Redaction.describe(e),
                    e);
        }
        if (key == null) {
            skipped.incrementAndGet();
            return null;
        }
        byte[] keyBytes = r.key() != null ? r.key() : keySerializer.serialize(spec.topic(), key);
        if (value == null) {
            return new StoreBatch.Put(keyBytes, null);
        }
        byte[] valueBytes = r.value() != null
                ? r.value()
                : consumed.valueSerde().serializer().serialize(spec.topic(), value);
        return new StoreBatch.Put(keyBytes, TableRowCodec.encode(valueBytes, eventTime, -1, Long.MIN_VALUE));
    }

    private StoreBatch.@Nullable Put reject(
            Raw r, RecordError.Reason reason, @Nullable String detail, @Nullable Throwable cause) {
        RecordError error =
                new RecordError(reason, spec.topic(), r.partition(), r.offset(), r.key(), r.value(), detail, cause);
        ErrorDecision decision = consumed.errorHandler().handle(error);
        if (decision.action() == ErrorDecision.Action.CONTINUE) {
            skipped.incrementAndGet();
            return null;
        }
        if (decision.action() == ErrorDecision.Action.DEAD_LETTER) {
            throw new IllegalStateException(
                    "Global table '" + spec.storeName() + "' cannot dead-letter: it reads "
                            + "its topic outside every task, with no producer; give its Consumed the fail() or "
                            + "logAndContinue() handler",
                    error);
        }
        throw error;
    }

    /** Records skipped so far: unreadable ones the handler let pass, and null keys. */
    public long skipped() {
        return skipped.get();
    }

    /** The typed, read-only view tasks read. */
    public ReadOnlyKeyValueStore<K, V> view() {
        return view;
    }

    /**
     * A typed, read-only view whose scans stop after {@code scanLimit} entries: what queries of the global
     * table read. Like every view, it reads what the store has applied, which is only ever committed data.
     */
    public ReadOnlyKeyValueStore<K, V> view(long scanLimit) {
        return new View(scanLimit);
    }

    /** Every row of the table with its event time, in key-byte order. */
    public void forEachRow(BiConsumer<? super K, TableRow<V>> action) {
        scan(null, null, Long.MAX_VALUE, action);
    }

    /** A typed view; scans give at most {@code limit} entries. */
    private final class View implements ReadOnlyKeyValueStore<K, V> {
        private final long limit;

        View(long limit) {
            this.limit = limit;
        }

        @Override
        public @Nullable V get(K key) {
            byte[] stored;
            lock.readLock().lock();
            try {
                stored = store.get(keySerializer.serialize(spec.topic(), key));
            } finally {
                lock.readLock().unlock();
            }
            return stored == null ? null : codec.decode(stored).value();
        }

        @Override
        public void forEach(BiConsumer<? super K, ? super V> action) {
            scan(null, null, limit, (k, row) -> action.accept(k, row.value()));
        }

        @Override
        public void range(@Nullable K from, @Nullable K to, BiConsumer<? super K, ? super V> action) {
            scan(key(from), key(to), limit, (k, row) -> action.accept(k, row.value()));
        }

        @Override
        public <P> void prefixScan(P prefix, Serializer<P> prefixSerializer, BiConsumer<? super K, ? super V> action) {
            byte[] start = prefixSerializer.serialize(spec.topic(), prefix);
            scan(start, Bytes.prefixEnd(start), limit, (k, row) -> action.accept(k, row.value()));
        }
    }

    private byte @Nullable [] key(@Nullable K key) {
        return key == null ? null : keySerializer.serialize(spec.topic(), key);
    }

    /**
     * Calls {@code action} for at most {@code limit} rows with a key in {@code [from, to)}; the rows are
     * copied out under the lock and decoded after it, so user code never runs under it.
     */
    private void scan(
            byte @Nullable [] from, byte @Nullable [] to, long limit, BiConsumer<? super K, TableRow<V>> action) {
        List<ByteEntry> entries = new ArrayList<>();
        lock.readLock().lock();
        try (KeyValueIterator it = store.range(from, to)) {
            while (it.hasNext() && entries.size() < limit) {
                entries.add(it.next());
            }
        } finally {
            lock.readLock().unlock();
        }
        for (ByteEntry e : entries) {
            action.accept(keyDeserializer.deserialize(spec.topic(), e.key()), codec.decode(e.value()));
        }
    }

    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            store.close();
        } finally {
            lock.writeLock().unlock();
        }
    }
}
