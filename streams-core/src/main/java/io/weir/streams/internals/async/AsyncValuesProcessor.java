package io.weir.streams.internals.async;

import io.weir.streams.errors.AsyncCallFailedException;
import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.util.Iterator;

/**
 * The operator of {@code mapValuesAsync} and {@code flatMapValuesAsync}: calls out for each record ({@link
 * AsyncCalls}) and forwards each result (or each value of it), in order, with the record's key, event time
 * and headers.
 *
 * <p>Exactly-once: the task commits its input offsets past records whose calls are still in flight, so each
 * commit keeps the records it holds in its store ({@link HeldRecordStore}), in the same transaction. A later
 * owner of the task (after a crash, a rebalance or a restart) calls for them again when it starts, before
 * any new record: calls are made at least once, results are forwarded exactly once.
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

    private final Settings<K, V, V2> settings;
    private ProcessorContext context;
    private HeldRecordStore<K, V> store;
    private AsyncCalls<K, V, V2> calls;

    public AsyncValuesProcessor(Settings<K, V, V2> settings) {
        this.settings = settings;
    }

    @Override
    public void init(ProcessorContext context) {
        this.context = context;
        this.store = HeldRecordStore.open(context, settings.store(), settings.keySerde(), settings.valueSerde());
        this.calls =
                AsyncCalls.inTask(context, settings.async(), settings.call(), settings.keySerde(), settings.store());
        store.restoreInto(calls, context.processingTime());
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
        store.commit(calls);
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
                context.failed(new AsyncCallFailedException(context.nodeName(), attempts, error), record.source());
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
            context.failed(e, record.source());
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
                context.failed(e, record.source());
                return;
            }
            context.forward(record.withValue(value));
        }
    }
}
