package io.weir.streams.internals.table;

import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.time.TimeDomain;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * How a join reads a table's rows by key: the store of the table it derives from (a source table, an
 * aggregation or a materialized table), that store's key serde and stored value serde, and the view
 * the stateless operators in between ({@code filter}, {@code mapValues}) put over a stored value, so
 * a join with a filtered table reads the filtered row without a store of its own, as Kafka Streams'
 * value getters do. A versioned table's lookup also reads the version valid at a time; a table with a
 * time-to-live hides a row that has expired but is not yet purged (purges run at commit), so a join sees
 * what the table's own operators see. Immutable; {@link #open} gives a task's reader.
 *
 * @param <K> the table's key type
 * @param <V> the value a reader returns
 */
public final class TableLookup<K, V> {

    /** A versioned table's history: its store, retention and the source whose watermark judges it. */
    public record History(String store, long retention, String sourceNode) {}

    private final String store;
    private final @Nullable History history;
    private final @Nullable TimeToLive timeToLive;
    private final Serde<K> keySerde;
    private final Supplier<RowFormat<K, V>> formats;

    private TableLookup(
            String store,
            @Nullable History history,
            @Nullable TimeToLive timeToLive,
            Serde<K> keySerde,
            Supplier<RowFormat<K, V>> formats) {
        this.store = store;
        this.history = history;
        this.timeToLive = timeToLive;
        this.keySerde = keySerde;
        this.formats = formats;
    }

    /** The rows of table store {@code store}, {@link TableRowCodec} rows of {@code valueSerde}. */
    public static <K, V> TableLookup<K, V> of(
            String store,
            @Nullable History history,
            @Nullable TimeToLive timeToLive,
            Serde<K> keySerde,
            Serde<V> valueSerde) {
        return new TableLookup<>(
                store, history, timeToLive, keySerde, () -> RowFormat.of(new TableRowCodec<>(store, valueSerde)));
    }

    /** The rows of store {@code store}, which holds them as each task's {@code formats.get()} says. */
    public static <K, V> TableLookup<K, V> of(String store, Serde<K> keySerde, Supplier<RowFormat<K, V>> formats) {
        return new TableLookup<>(store, null, null, keySerde, formats);
    }

    /** The rows of a table derived from this one by {@code step}, which returns null where the row is absent. */
    public <V2> TableLookup<K, V2> derive(BiFunction<? super K, ? super V, ? extends @Nullable V2> step) {
        Supplier<RowFormat<K, V>> before = formats;
        return new TableLookup<>(store, history, timeToLive, keySerde, () -> new DerivedFormat<>(before.get(), step));
    }

    /** The rows of a derived table: its parent's, through the step between them. */
    private record DerivedFormat<K, V, V2>(
            RowFormat<K, V> base, BiFunction<? super K, ? super V, ? extends @Nullable V2> step)
            implements RowFormat<K, V2> {

        @Override
        public @Nullable V2 value(K key, byte[] stored) {
            V v = base.value(key, stored);
            return v == null ? null : step.apply(key, v);
        }

        @Override
        public long timestamp(byte[] stored) {
            return base.timestamp(stored);
        }

        @Override
        public boolean sameValue(K key, byte @Nullable [] a, byte @Nullable [] b) {
            return base.sameValue(key, a, b);
        }
    }

    /** The stores a reader reads: the table's, and its history when it is versioned. */
    public Set<String> stores() {
        Set<String> stores = new LinkedHashSet<>();
        stores.add(store);
        if (history != null) {
            stores.add(history.store());
        }
        return stores;
    }

    /** The versioned table's history, or null when the table keeps its latest rows only. */
    public @Nullable History history() {
        return history;
    }

    public Serde<K> keySerde() {
        return keySerde;
    }

    /** A task's reading of the rows, apart from any store: what a join storing these rows decodes them with. */
    public RowFormat<K, V> newFormat() {
        return formats.get();
    }

    /** A reader over {@code context}'s stores, for one task. */
    public Reader open(ProcessorContext context) {
        return new Reader(context);
    }

    /** Reads the table of one task. Single-threaded, like its task. */
    public final class Reader {

        private final ProcessorContext context;
        private final WriteBackCache latest;
        private final @Nullable WriteBackCache versions;
        private final Serializer<K> keys;
        private final RowFormat<K, V> format;

        private Reader(ProcessorContext context) {
            this.context = context;
            this.latest = context.stores().cache(store);
            this.versions = history == null ? null : context.stores().cache(history.store());
            this.keys = keySerde.serializer();
            this.format = formats.get();
        }

        /** The row of {@code key} now, or null when the table has none. */
        public @Nullable V latest(K key) {
            byte[] stored = latestStored(key);
            return stored == null ? null : format.value(key, stored);
        }

        /**
         * The stored row of {@code key} now, as the table's store holds it, or null when the table has none
         * (absent, a versioned table's delete, or expired by its time-to-live).
         */
        public byte @Nullable [] latestStored(K key) {
            byte[] stored = latest.get(keys.serialize(store, key));
            return stored == null || TableRowCodec.isDeleteRow(stored) || expired(stored) ? null : stored;
        }

        /** The value a row {@link #latestStored} returned stands for (null: none, as a filter's). */
        public @Nullable V value(K key, byte[] stored) {
            return format.value(key, stored);
        }

        /** The event time of a row {@link #latestStored} returned. */
        public long timestamp(byte[] stored) {
            return format.timestamp(stored);
        }

        /**
         * The row of {@code key} valid at event time {@code time}: the version with the greatest
         * validity start at or before it, or null when there is none or it is a delete.
         *
         * @throws IllegalStateException if the table is not versioned
         */
        public @Nullable V asOf(K key, long time) {
            if (versions == null) {
                throw new IllegalStateException("Table store '" + store + "' is not versioned");
            }
            byte[] stored = TableVersions.at(latest, versions, keys.serialize(store, key), time);
            return stored == null || TableRowCodec.isDeleteRow(stored) ? null : format.value(key, stored);
        }

        private boolean expired(byte[] stored) {
            TimeToLive ttl = timeToLive;
            if (ttl == null) {
                return false;
            }
            boolean eventTime = ttl.domain() == TimeDomain.EVENT_TIME;
            long since = eventTime ? TableRowCodec.timestamp(stored) : TableRowCodec.updatedAt(stored);
            return TimeMath.plus(since, ttl.ttl()) <= (eventTime ? context.watermark() : context.processingTime());
        }
    }
}
