package io.weir.streams.dsl;

import io.weir.streams.time.TimeDomain;

/**
 * What the DSL cannot say, written by hand: a processor of a keyed stream (see
 * {@link GroupedStream#process}) with its own state stores and per-key timers. Weir creates one
 * instance per task, calls it from that task's thread only, and closes it when the task goes.
 * <pre>{@code
 * // Emit a card's first payment, then nothing more for it until an hour of event time passed.
 * class FirstPaymentPerHour implements KeyedProcessor<String, Payment, String, Payment> {
 *     public void process(String card, Payment p, KeyedProcessorContext<String, String, Payment> ctx) {
 *         KeyValueStore<String, Long> seen = ctx.store("seen");
 *         if (seen.get(card) == null) {
 *             seen.put(card, ctx.eventTime());
 *             ctx.forward(card, p);
 *             ctx.registerTimer(TimeDomain.EVENT_TIME, ctx.eventTime() + 3_600_000);
 *         }
 *     }
 *     public void onTimer(long time, TimeDomain domain, KeyedProcessorContext<String, String, Payment> ctx) {
 *         ctx.<String, Long>store("seen").delete(ctx.currentKey());
 *     }
 * }
 * }</pre>
 */
public interface KeyedProcessor<K, V, KOut, VOut> {

    /**
     * Called once before the first record or timer; stores are usable here, timers are not (no key yet).
     *
     * @param context the task's context, valid until {@link #close()}; keep it for later calls if needed
     */
    default void init(KeyedProcessorContext<K, KOut, VOut> context) {}

    /**
     * One input record, whatever its event time: the processor sees late records too and may compare
     * {@link KeyedProcessorContext#eventTime()} with {@link KeyedProcessorContext#watermark()}.
     *
     * @param key the record's key, never null (records with a null key are skipped before)
     * @param value the record's value
     * @param context the context: current key and time, stores, timers, forwarding
     */
    void process(K key, V value, KeyedProcessorContext<K, KOut, VOut> context);

    /**
     * A timer of {@link KeyedProcessorContext#currentKey()} fired: an event-time timer once the
     * watermark reached {@code time}, a processing-time timer once the clock did. The timers due at an
     * advance fire in time order; each registered (key, domain, time) fires once, and not at all if a
     * callback deleted it before its turn. It is removed before this call, so it may be registered
     * again: a timer registered here at a time its clock has already reached waits until that clock
     * moves on.
     *
     * @param time the timer's time, in epoch milliseconds
     * @param domain the clock the timer followed
     * @param context the context, with the timer's key as current key
     */
    default void onTimer(long time, TimeDomain domain, KeyedProcessorContext<K, KOut, VOut> context) {}

    /**
     * Called once when the task goes (closed, moved, or the instance stops): release what {@code init}
     * acquired. Weir closes the stores itself.
     */
    default void close() {}
}
