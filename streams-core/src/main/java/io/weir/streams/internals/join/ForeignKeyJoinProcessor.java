package io.weir.streams.internals.join;

import io.weir.streams.WeirMetrics;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.table.Change;
import io.weir.streams.internals.table.RowFormat;
import io.weir.streams.internals.table.TableLookup;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.util.Arrays;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The left side of a foreign-key join (a table {@code L} joined with a table {@code R} by a key {@code
 * fk(L row)} of {@code R}, inner or left, giving a table keyed like {@code L}); it runs in the tasks of
 * {@code L}, and {@link ForeignKeySubscriptionProcessor} in the tasks of {@code R}. It receives two kinds
 * of records:
 * <ul>
 *   <li>a change of an {@code L} row: when its foreign key changes, it unsubscribes the row from the old
 *       key and subscribes it to the new one (messages forwarded, as bytes, to the subscription topic);
 *       when the row is deleted its result is deleted at once; when its foreign key is null (counted,
 *       {@value WeirMetrics#NULL_JOIN_KEYS}) an inner join has no result and a left join joins it with
 *       null at once; when the foreign key is unchanged the result is recomputed at once from the {@code R}
 *       row last received for it;</li>
 *   <li>a response from {@code R}'s tasks (keyed by the left key's bytes): the {@code R} row of a foreign
 *       key, sent when the row subscribed and whenever that {@code R} row changes. It is applied only if
 *       the {@code L} row's current foreign key is that key: a response for an earlier foreign key, or for
 *       a deleted row, is stale and dropped, so no stale result survives.</li>
 * </ul>
 * While a row waits for the response to its new foreign key its result stays as it was. Once no
 * subscription or response is in flight (the TestDriver drains them within each input record; the
 * runtime within a commit interval or two), the result applied as upserts is the relational join. Results
 * are kept as {@link JoinResults}: each change carries the exact old result, and a left row is never
 * joined with null while its partner's response is on the way.
 */
public final class ForeignKeyJoinProcessor<K, V, KO, VR> implements Processor<Object, Object> {

    /** What the left side of a foreign-key join is built with. */
    public record Settings<K, V, KO, VR>(
            String store,
            TableLookup<K, V> left,
            Function<? super V, ? extends @Nullable KO> foreignKey,
            Serde<KO> foreignKeySerde,
            Supplier<RowFormat<K, VR>> rows,
            boolean leftJoin,
            boolean emitEveryChange) {}

    private final Settings<K, V, KO, VR> settings;
    private ProcessorContext context;
    private TableLookup<K, V>.Reader left;
    private JoinResults<K, VR> results;
    private Serializer<K> keys;
    private Deserializer<K> keyReader;
    private Serializer<KO> foreignKeys;
    private Counter nullForeignKeys;

    public ForeignKeyJoinProcessor(Settings<K, V, KO, VR> settings) {
        this.settings = settings;
    }

    @Override
    public void init(ProcessorContext context) {
        this.context = context;
        this.left = settings.left().open(context);
        this.keys = settings.left().keySerde().serializer();
        this.keyReader = settings.left().keySerde().deserializer();
        this.foreignKeys = settings.foreignKeySerde().serializer();
        this.results = new JoinResults<>(
                context, settings.store(), keys, settings.rows().get(), settings.emitEveryChange());
        this.nullForeignKeys = context.metrics().counter(context.nodeName(), WeirMetrics.NULL_JOIN_KEYS);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void process(Record<Object, Object> record) {
        if (record.value() instanceof Change<?> change) {
            leftChanged((K) record.key(), (Change<V>) change, record);
        } else {
            responded((byte[]) record.key(), (byte[]) record.value(), record.timestamp());
        }
    }

    private void leftChanged(K key, Change<V> change, Record<Object, Object> record) {
        byte[] keyBytes = keys.serialize(settings.store(), key);
        byte[] oldForeignKey = foreignKeyBytes(change.oldValue());
        V value = change.newValue();
        byte[] newForeignKey = foreignKeyBytes(value);
        if (!Arrays.equals(oldForeignKey, newForeignKey)) {
            if (oldForeignKey != null) {
                subscribe(oldForeignKey, ForeignKeyMessages.UNSUBSCRIBE, keyBytes, record);
            }
            if (newForeignKey != null) {
                subscribe(newForeignKey, ForeignKeyMessages.SUBSCRIBE, keyBytes, record);
            }
        }
        byte[] row = left.latestStored(key);
        if (value == null || row == null) {
            results.set(key, null, record.timestamp());
            return;
        }
        long time = Math.max(record.timestamp(), left.timestamp(row));
        if (newForeignKey == null) {
            nullForeignKeys.increment();
            results.set(key, settings.leftJoin() ? JoinedRows.encode(row, null, time) : null, time);
            return;
        }
        byte[] joined = results.get(key);
        if (joined == null) {
            return;
        }
        byte[] joinedRow = JoinedRows.leftRow(joined);
        if (joinedRow != null && Arrays.equals(foreignKeyBytes(left.value(key, joinedRow)), newForeignKey)) {
            // Same foreign key as the result's: its right row is the latest received for it.
            byte[] right = JoinedRows.rightRow(joined);
            results.set(key, JoinedRows.encode(row, right, Math.max(time, JoinedRows.timestampOf(joined))), time);
        }
    }

    private void responded(byte[] keyBytes, byte[] message, long time) {
        K key = keyReader.deserialize(settings.store(), keyBytes);
        ForeignKeyMessages.Response response = ForeignKeyMessages.response(message);
        byte[] row = left.latestStored(key);
        if (row == null) {
            return;
        }
        V value = left.value(key, row);
        if (value == null || !Arrays.equals(foreignKeyBytes(value), response.foreignKey())) {
            return;
        }
        results.set(key, JoinedRows.encode(row, response.rightRow(), Math.max(time, left.timestamp(row))), time);
    }

    private byte @Nullable [] foreignKeyBytes(@Nullable V value) {
        if (value == null) {
            return null;
        }
        KO foreignKey = settings.foreignKey().apply(value);
        return foreignKey == null ? null : foreignKeys.serialize(settings.store(), foreignKey);
    }

    private void subscribe(byte[] foreignKey, byte kind, byte[] keyBytes, Record<Object, Object> record) {
        context.forward(new Record<>(
                foreignKey,
                ForeignKeyMessages.subscription(kind, keyBytes),
                record.timestamp(),
                null,
                record.source()));
    }

    @Override
    public void beforeCommit() {
        results.beforeCommit();
    }
}
