package io.weir.streams.internals.join;

import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.processor.SourceInfo;
import io.weir.streams.internals.state.Bytes;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.internals.table.Change;
import io.weir.streams.internals.table.TableLookup;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * The right side of a foreign-key join (see {@link ForeignKeyJoinProcessor}), in the tasks of the right
 * table {@code R}: it keeps which left rows subscribed to each foreign key, in a store keyed {@code
 * [foreign key length][foreign key][left key]} (one range per foreign key), and answers with the {@code
 * R} row of the key: to a subscription at once, and to every subscriber whenever the row changes. The
 * responses are forwarded keyed by the left key's bytes, for the response topic. It receives
 * subscriptions (bytes, keyed by the foreign key's bytes) and the changes of {@code R}'s rows.
 */
public final class ForeignKeySubscriptionProcessor<KO, VO> implements Processor<Object, Object> {

    private static final byte[] EMPTY = new byte[0];

    private final String storeName;
    private final TableLookup<KO, VO> right;
    private ProcessorContext context;
    private WriteBackCache subscriptions;
    private TableLookup<KO, VO>.Reader rows;
    private Serializer<KO> foreignKeys;
    private Deserializer<KO> foreignKeyReader;

    public ForeignKeySubscriptionProcessor(String storeName, TableLookup<KO, VO> right) {
        this.storeName = storeName;
        this.right = right;
    }

    @Override
    public void init(ProcessorContext context) {
        this.context = context;
        this.subscriptions = context.stores().cache(storeName);
        this.rows = right.open(context);
        this.foreignKeys = right.keySerde().serializer();
        this.foreignKeyReader = right.keySerde().deserializer();
    }

    @Override
    @SuppressWarnings("unchecked")
    public void process(Record<Object, Object> record) {
        if (record.value() instanceof Change<?>) {
            KO foreignKey = (KO) record.key();
            byte[] foreignKeyBytes = foreignKeys.serialize(storeName, foreignKey);
            byte[] prefix = ForeignKeyMessages.subscribers(foreignKeyBytes);
            List<byte[]> subscribers = new ArrayList<>();
            try (KeyValueIterator it = subscriptions.range(prefix, Bytes.prefixEnd(prefix))) {
                while (it.hasNext()) {
                    subscribers.add(ForeignKeyMessages.leftKeyOf(it.next().key(), prefix));
                }
            }
            if (subscribers.isEmpty()) {
                return;
            }
            byte[] row = rows.latestStored(foreignKey);
            for (byte[] leftKey : subscribers) {
                respond(leftKey, foreignKeyBytes, row, record);
            }
            return;
        }
        byte[] foreignKeyBytes = (byte[]) record.key();
        byte[] message = (byte[]) record.value();
        SourceInfo source = record.source();
        byte kind = ForeignKeyMessages.kind(message, source == null ? "(unknown)" : source.topic());
        byte[] leftKey = ForeignKeyMessages.leftKey(message);
        byte[] entry = ForeignKeyMessages.subscriptionEntry(foreignKeyBytes, leftKey);
        if (kind == ForeignKeyMessages.UNSUBSCRIBE) {
            subscriptions.delete(entry);
            return;
        }
        subscriptions.put(entry, EMPTY);
        KO foreignKey = foreignKeyReader.deserialize(storeName, foreignKeyBytes);
        respond(leftKey, foreignKeyBytes, rows.latestStored(foreignKey), record);
    }

    /** Sends {@code row} to the left key, stamped no earlier than the row itself or the change that sent it. */
    private void respond(byte[] leftKey, byte[] foreignKey, byte @Nullable [] row, Record<Object, Object> cause) {
        long time = row == null ? cause.timestamp() : Math.max(cause.timestamp(), rows.timestamp(row));
        context.forward(
                new Record<>(leftKey, ForeignKeyMessages.response(foreignKey, row), time, null, cause.source()));
    }
}
