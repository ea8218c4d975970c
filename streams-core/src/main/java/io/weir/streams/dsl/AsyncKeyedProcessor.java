package io.weir.streams.dsl;

import io.weir.streams.errors.AsyncCallFailedException;
import io.weir.streams.time.TimeDomain;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.CompletionStage;

/**
 * A keyed processor that calls out for each record and acts on the answer with its key's state (see {@link
 * GroupedStream#processAsync}): {@link #call} starts the call when the record arrives, and {@link #process}
 * runs when the answer is in, on the task's thread, with the stores, timers and forwarding of a {@link
 * KeyedProcessor}. Weir creates one instance per task and closes it when the task goes.
 *
 * <p>What {@code process} and {@code onTimer} see is exactly what a synchronous {@link KeyedProcessor} would
 * see for each key, with the answer added: a key's answers in the order its records arrived, and each
 * watermark advance (its event-time timers, {@link KeyedProcessorContext#watermark()}) after the answers of
 * every record that arrived before it and before any answer of a record that arrived after it. Meanwhile
 * the calls of every key run at once, up to the capacity. So the state a processor builds is the state its
 * synchronous twin would build, whatever order the answers come in.
 *
 * <pre>{@code
 * // Keep each card's latest risk score, fetched from a scoring service, and alert on a jump.
 * class RiskTracker implements AsyncKeyedProcessor<String, Payment, Double, String, Alert> {
 *     public CompletionStage<Double> call(String card, Payment p) {
 *         return scoring.score(p); // returns at once; completes later
 *     }
 *     public void process(String card, Payment p, Double score, KeyedProcessorContext<String, String, Alert> ctx) {
 *         KeyValueStore<String, Double> last = ctx.store("last-score");
 *         Double before = last.get(card);
 *         if (before != null && score - before > 0.5) {
 *             ctx.forward(card, new Alert(card, before, score));
 *         }
 *         last.put(card, score);
 *     }
 * }
 * }</pre>
 *
 * @param <K> the key type
 * @param <V> the value type of the records
 * @param <R> what a call answers
 * @param <KOut> the key type of what it forwards
 * @param <VOut> the value type of what it forwards
 */
public interface AsyncKeyedProcessor<K, V, R, KOut, VOut> {

    /**
     * Called once before the first record or timer; stores are usable here, timers are not (no key yet).
     *
     * @param context the task's context, valid until {@link #close()}
     */
    default void init(KeyedProcessorContext<K, KOut, VOut> context) {}

    /**
     * Starts the call for one record, when it arrives. Runs on the task's thread: it must not block. The call
     * is made <em>at least once</em>: again after a retry, and again for records whose answers had not been
     * processed when the task last committed, after a crash or a move to another instance. What {@link
     * #process} does with the answer happens exactly once.
     *
     * @param key the record's key, never null (records with a null key are skipped before)
     * @param value the record's value
     * @return the answer, completed later on any thread
     */
    CompletionStage<? extends R> call(K key, V value);

    /**
     * The answer for one record is in: act on it with the key's state, timers and forwarding, as {@link
     * KeyedProcessor#process} would. The context's event time and headers are the record's.
     *
     * @param key the record's key
     * @param value the record's value
     * @param answer what the call completed with
     * @param context the context, with the record's key as current key
     */
    void process(K key, V value, @Nullable R answer, KeyedProcessorContext<K, KOut, VOut> context);

    /**
     * The call for one record failed on its last attempt (its error, or a timeout), in the record's place in
     * the order. By default it throws {@code failure}, which the processing-error handler decides on (fail,
     * skip, dead-letter); a processor may instead act on it with its state (a fallback, a count).
     *
     * @param key the record's key
     * @param value the record's value
     * @param failure the failure, with the last attempt's error as its cause
     * @param context the context, with the record's key as current key
     */
    default void onFailure(
            K key, V value, AsyncCallFailedException failure, KeyedProcessorContext<K, KOut, VOut> context) {
        throw failure;
    }

    /**
     * A timer of {@link KeyedProcessorContext#currentKey()} fired, as {@link KeyedProcessor#onTimer} says; an
     * event-time timer fires once the watermark this processor sees reaches it (see the class comment).
     *
     * @param time the timer's time, in epoch milliseconds
     * @param domain the clock the timer followed
     * @param context the context, with the timer's key as current key
     */
    default void onTimer(long time, TimeDomain domain, KeyedProcessorContext<K, KOut, VOut> context) {}

    /** Called once when the task goes: release what {@code init} acquired. Weir closes the stores itself. */
    default void close() {}
}
