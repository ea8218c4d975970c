package io.weir.streams.internals.table;

import io.weir.streams.dsl.Refinement;
import io.weir.streams.internals.operator.Retractions;
import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import org.jspecify.annotations.Nullable;

/**
 * A table's changes as a stream ({@code Table.toStream}): each change becomes its new value (null for a
 * delete), with the change's time, headers and source. Under {@link Refinement#ACCUMULATING_AND_RETRACTING}
 * a change that replaces a value is preceded by a retraction of the old one, sent and counted by the
 * shared {@link Retractions}, as window panes' are. {@link Refinement#DISCARDING} is refused at build
 * time: a table's values need not be numbers, so a change has no delta to send.
 */
public final class TableToStreamProcessor<K, V> implements Processor<K, Change<V>> {

    private final boolean retracting;
    private ProcessorContext context;
    private @Nullable Retractions retractions;

    public TableToStreamProcessor(Refinement refinement) {
        if (refinement == Refinement.DISCARDING) {
            throw new IllegalArgumentException("A table's changes cannot be sent DISCARDING");
        }
        this.retracting = refinement == Refinement.ACCUMULATING_AND_RETRACTING;
    }

    @Override
    public void init(ProcessorContext context) {
        this.context = context;
        this.retractions = retracting ? new Retractions(context) : null;
    }

    // A tombstone's value is null, which the stream's value type must hold; NullAway cannot say that a type
    // argument is nullable.
    @Override
    @SuppressWarnings("NullAway")
    public void process(Record<K, Change<V>> record) {
        Change<V> change = record.value();
        if (retractions != null && change.oldValue() != null) {
            retractions.forward(record.key(), change.oldValue(), record.timestamp(), record.source());
        }
        context.forward(record.withValue(change.newValue()));
    }
}
