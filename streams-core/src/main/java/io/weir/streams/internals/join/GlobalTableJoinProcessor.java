package io.weir.streams.internals.join;

import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.state.ReadOnlyKeyValueStore;
import org.jspecify.annotations.Nullable;

import java.util.function.BiFunction;

/**
 * A stream joined with a global table, inner or left: each record looks up the table's current row
 * under the key its selector gives ({@link LookupResults} says what follows). Stateless on the stream side: nothing waits, nothing is stored, so nothing is late; the
 * table is read through its store's read-only view, which its thread keeps current.
 */
public final class GlobalTableJoinProcessor<K, V, GK, GV, VR> implements Processor<K, V> {

    private final String storeName;
    private final BiFunction<? super K, ? super V, ? extends @Nullable GK> keySelector;
    private final BiFunction<? super V, ? super @Nullable GV, ? extends VR> joiner;
    private final boolean left;
    private ReadOnlyKeyValueStore<GK, GV> table;
    private LookupResults<K, V, GV, VR> results;

    /** @param left whether a record with no row is joined with null (a left join) rather than dropped */
    public GlobalTableJoinProcessor(
            String storeName,
            BiFunction<? super K, ? super V, ? extends @Nullable GK> keySelector,
            BiFunction<? super V, ? super @Nullable GV, ? extends VR> joiner,
            boolean left) {
        this.storeName = storeName;
        this.keySelector = keySelector;
        this.joiner = joiner;
        this.left = left;
    }

    @Override
    @SuppressWarnings("unchecked") // the builder checked that the store is this table's
    public void init(ProcessorContext context) {
        this.table = (ReadOnlyKeyValueStore<GK, GV>) context.stores().globalTable(storeName);
        this.results = new LookupResults<>(context, joiner, left);
    }

    @Override
    public void process(Record<K, V> record) {
        GK key = keySelector.apply(record.key(), record.value());
        if (key == null) {
            results.nullKey(record);
        } else {
            results.found(record, table.get(key));
        }
    }
}
