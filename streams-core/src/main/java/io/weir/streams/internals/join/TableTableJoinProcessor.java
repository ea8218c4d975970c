package io.weir.streams.internals.join;

import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.table.Change;
import io.weir.streams.internals.table.RowFormat;
import io.weir.streams.internals.table.TableLookup;

import java.util.function.Supplier;

/**
 * Two tables of the same task joined by key, inner, left or outer, giving a table. One node with both
 * tables as parents: a change of either side's row of key {@code k} recomputes {@code k}'s result from
 * both tables' current rows (read from their stores, which hold every update already, even one whose
 * change their operator still holds for the commit), so the result of {@code k} is always the join of
 * the two current rows, whichever side changed and in whatever order the changes arrive. The result is
 * kept as {@link JoinResults}: each change carries the exact old result, by default the last per key at
 * each commit, after the tables' own changes since this node comes after them. At every commit the result,
 * applied as upserts, is the relational join of the two tables.
 */
public final class TableTableJoinProcessor<K, V, VO, VR> implements Processor<K, Change<?>> {

    /** What a table–table join is built with. */
    public record Settings<K, V, VO, VR>(
            String store,
            TableLookup<K, V> left,
            TableLookup<K, VO> right,
            Supplier<RowFormat<K, VR>> rows,
            boolean emitEveryChange) {}

    private final Settings<K, V, VO, VR> settings;
    private TableLookup<K, V>.Reader left;
    private TableLookup<K, VO>.Reader right;
    private JoinResults<K, VR> results;

    public TableTableJoinProcessor(Settings<K, V, VO, VR> settings) {
        this.settings = settings;
    }

    @Override
    public void init(ProcessorContext context) {
        this.left = settings.left().open(context);
        this.right = settings.right().open(context);
        this.results = new JoinResults<>(
                context,
                settings.store(),
                settings.left().keySerde().serializer(),
                settings.rows().get(),
                settings.emitEveryChange());
    }

    @Override
    public void process(Record<K, Change<?>> record) {
        K key = record.key();
        if (key == null) {
            return;
        }
        byte[] l = left.latestStored(key);
        byte[] r = right.latestStored(key);
        if (l == null && r == null) {
            results.set(key, null, record.timestamp());
            return;
        }
        // The change that caused this one counts too: a delete on one side leaves the other side's older row.
        long time = Math.max(
                record.timestamp(),
                Math.max(
                        l == null ? Long.MIN_VALUE : left.timestamp(l),
                        r == null ? Long.MIN_VALUE : right.timestamp(r)));
        results.set(key, JoinedRows.encode(l, r, time), time);
    }

    @Override
    public void beforeCommit() {
        results.beforeCommit();
    }
}
