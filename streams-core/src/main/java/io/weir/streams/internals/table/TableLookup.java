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
    private final Serde<?> storedSerde;
    private final BiFunction<K, Object, @Nullable V> view;

    private TableLookup(
            String store,
            @Nullable History history,
            @Nullable TimeToLive timeToLive,
            Serde<K> keySerde,
            Serde<?> storedSerde,
            BiFunction<K, Object, @Nullable V> view) {
        this.store = store;
        this.history = history;
        this.timeToLive = timeToLive;
        this.keySerde = keySerde;
        this.storedSerde = storedSerde;
        this.view = view;
    }

    /** The rows of table store {@code store}, values as stored. */
    @SuppressWarnings("unchecked")
    public static <K, V> TableLookup<K, V> of(
            String store,
            @Nullable History history,
            @Nullable TimeToLive timeToLive,
            Serde<K> keySerde,
            Serde<V> valueSerde) {
        return new TableLookup<>(store, history, timeToLive, keySerde, valueSerde, (k, v) -> (V) v);
    }

    /** The rows of a table derived from this one by {@code step}, which returns null where the row is absent. */
    public <V2> TableLookup<K, V2> derive(BiFunction<? super K, ? super V, ? extends @Nullable V2> step) {
        BiFunction<K, Object, @Nullable V> before = view;
        return new TableLookup<>(store, history, timeToLive, keySerde, storedSerde, (k, stored) -> {
            V v = before.apply(k, stored);
            return v == null ? null : step.apply(k, v);
        });
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
        private final TableRowCodec<?> codec;

        private Reader(ProcessorContext context) {
            this.context = context;
            this.latest = context.stores().cache(store);
            this.versions = history == null ? null : context.stores().cache(history.store());
            this.keys = keySerde.serializer();
            this.codec = new TableRowCodec<>(store, storedSerde);
        }

        /** The row of {@code key} now, or null when the table has none. */
        public @Nullable V latest(K key) {
            return value(key, latest.get(keys.serialize(store, key)));
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
            return value(key, TableVersions.at(latest, versions, keys.serialize(store, key), time));
        }

        private @Nullable V value(K key, byte @Nullable [] stored) {
            if (stored == null || TableRowCodec.isDelete(stored) || expired(stored)) {
                return null;
            }
            Object value = codec.decode(stored).value();
            return value == null ? null : view.apply(key, value);
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
