package io.weir.streams.internals.keyed;

import io.weir.streams.dsl.AsyncKeyedProcessor;
import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.errors.AsyncCallFailedException;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.async.AsyncCalls;
import io.weir.streams.internals.async.AsyncSettings;
import io.weir.streams.internals.async.HeldRecordStore;
import io.weir.streams.internals.operator.EventTimeGate;
import io.weir.streams.internals.operator.LateDataOutput;
import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.time.TimeDomain;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * Runs a user's {@link AsyncKeyedProcessor} in a task: calls out for each record ({@link AsyncCalls}) and
 * hands each answer, in order, to a {@link KeyedProcessorNode} that runs the user's {@code process} with the
 * key's stores and timers.
 *
 * <p>Order and time: the watermark advances the task tells this node are queued behind the records held
 * when they come ({@link AsyncCalls#addBarrier}), and reach the processor (its timers, its {@code
 * watermark()}) in that place. So the processor sees, per key, what a synchronous keyed processor would.
 * The nodes below it see a watermark no later than the one the processor has seen, and below every held
 * record, so what it forwards later, from an answer or a timer, is never late for them.
 *
 * <p>Exactly-once: each commit keeps the held records and the queued advances in the operator's store
 * ({@link HeldRecordStore}); a later owner calls again for those records and queues those advances in
 * their places before any new record.
 *
 * <p>Failures: a call that finally fails goes to the processor's {@code onFailure}; what {@code process},
 * {@code onFailure} or {@code onTimer} throws goes to the processing-error handler, for the record (or the
 * timer) it was handling. Single-threaded, like its task, apart from the calls' completions.
 */
public final class AsyncKeyedProcessorNode<K, V, R, KOut, VOut> implements Processor<K, V> {

    /**
     * What the node needs besides the processor: the store of held records, how it calls out, the serdes it
     * keeps held records with, the processor's stores, and its timer store.
     */
    public record Settings<K, V>(
            String store,
            AsyncSettings async,
            Serde<K> keySerde,
            Serde<V> valueSerde,
            List<KeyedProcessorNode.StoreSerdes> stores,
            String timerStore) {}

    /** A record's value with its call's outcome: an answer, or the failure. */
    private record Answer<V, R>(
            V value, @Nullable R answer, @Nullable AsyncCallFailedException failure) {}

    private final Settings<K, V> settings;
    private final AsyncKeyedProcessor<K, V, R, KOut, VOut> processor;
    private final KeyedProcessorNode<K, Answer<V, R>, KOut, VOut> answers;
    private ProcessorContext context;
    private EventTimeGate gate;
    private HeldRecordStore<K, V> store;
    private AsyncCalls<K, V, R> calls;
    /** The watermark the processor has seen: the last advance whose records have all been answered. */
    private long delivered;
    /** The last advance queued: later ones only are queued. */
    private long queued;

    public AsyncKeyedProcessorNode(Settings<K, V> settings, AsyncKeyedProcessor<K, V, R, KOut, VOut> processor) {
        this.settings = settings;
        this.processor = processor;
        this.answers = new KeyedProcessorNode<>(
                new AnswerProcessor(), settings.keySerde(), settings.stores(), settings.timerStore(), () -> delivered);
    }

    @Override
    public void init(ProcessorContext context) {
        this.context = context;
        this.gate = new EventTimeGate(context, new LateDataOutput(null, context));
        this.store = HeldRecordStore.open(context, settings.store(), settings.keySerde(), settings.valueSerde());
        this.calls = AsyncCalls.inTask(context, settings.async(), this::call, settings.keySerde(), settings.store());
        delivered = store.restoreInto(calls, context.processingTime()).orElse(context.watermark());
        List<AsyncCalls.PendingWatermark> pending = calls.pendingWatermarks();
        queued = pending.isEmpty() ? delivered : pending.get(pending.size() - 1).watermark();
        answers.init(context);
        onWatermark(context.watermark());
    }

    @Override
    public void process(Record<K, V> record) {
        if (!gate.admits(record)) {
            return;
        }
        poll();
        calls.add(record, context.processingTime());
    }

    @Override
    public void onWatermark(long watermark) {
        gate.advance(watermark);
        if (watermark > queued) {
            queued = watermark;
            calls.addBarrier(watermark);
        }
        poll();
    }

    @Override
    public void onProcessingTime(long now) {
        poll();
        try {
            answers.onProcessingTime(now);
        } catch (RuntimeException e) {
            context.failed(e, null);
        }
    }

    @Override
    public void onBatchEnd() {
        poll();
    }

    @Override
    public void beforeCommit() {
        poll();
        store.commit(calls);
        store.commitWatermarks(delivered, calls.pendingWatermarks());
    }

    @Override
    public boolean holdsWatermark() {
        return true;
    }

    /**
     * Below every held record, and, while records are held or advances queued, no later than the watermark
     * the processor has seen: an advance the task tells this node is queued then, and its timers fire only
     * once it leaves.
     */
    @Override
    public long watermarkHold() {
        if (calls.size() == 0 && !calls.hasBarriers()) {
            return Long.MAX_VALUE;
        }
        return Math.min(calls.hold(), TimeMath.plus(delivered, 1));
    }

    @Override
    public boolean acceptsInput() {
        return calls.hasRoom();
    }

    @Override
    public void close() {
        calls.abandon();
        answers.close();
    }

    // A value is of the stream's type, which may hold null (a serde that read null); NullAway's checks cannot
    // say that a type argument is nullable, so they are off here. A null key is never admitted.
    @SuppressWarnings("NullAway")
    private CompletionStage<? extends R> call(@Nullable K key, @Nullable V value) {
        return processor.call(Objects.requireNonNull(key, "key"), value);
    }

    private void poll() {
        calls.poll(context.processingTime(), new AsyncCalls.Results<>() {
            @Override
            public void result(Record<K, V> record, @Nullable R answer) {
                handle(record, new Answer<>(record.value(), answer, null));
            }

            @Override
            public void failed(Record<K, V> record, Throwable error, int attempts) {
                handle(
                        record,
                        new Answer<>(
                                record.value(),
                                null,
                                new AsyncCallFailedException(context.nodeName(), attempts, error)));
            }

            @Override
            public void watermark(long watermark) {
                delivered = watermark;
                try {
                    answers.onWatermark(watermark);
                } catch (RuntimeException e) {
                    context.failed(e, null);
                }
            }
        });
    }

    private void handle(Record<K, V> record, Answer<V, R> answer) {
        try {
            answers.process(record.withValue(answer));
        } catch (RuntimeException e) {
            context.failed(e, record.source());
        }
    }

    /** The user's processor, as the keyed node runs it: each answer to {@code process} or {@code onFailure}. */
    private final class AnswerProcessor implements KeyedProcessor<K, Answer<V, R>, KOut, VOut> {

        @Override
        public void init(KeyedProcessorContext<K, KOut, VOut> context) {
            processor.init(context);
        }

        @Override
        public void process(K key, Answer<V, R> answer, KeyedProcessorContext<K, KOut, VOut> context) {
            AsyncCallFailedException failure = answer.failure();
            if (failure == null) {
                processor.process(key, answer.value(), answer.answer(), context);
            } else {
                processor.onFailure(key, answer.value(), failure, context);
            }
        }

        @Override
        public void onTimer(long time, TimeDomain domain, KeyedProcessorContext<K, KOut, VOut> context) {
            processor.onTimer(time, domain, context);
        }

        @Override
        public void close() {
            processor.close();
        }
    }
}
