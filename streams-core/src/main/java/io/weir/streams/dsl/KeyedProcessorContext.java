package io.weir.streams.dsl;

import io.weir.streams.state.KeyValueStore;
import io.weir.streams.state.ReadOnlyKeyValueStore;
import io.weir.streams.state.WindowStore;
import io.weir.streams.time.TimeDomain;

/**
 * What a {@link KeyedProcessor} may use: the current key and time, its stores, timers of the current
 * key, and forwarding of results downstream.
 */
public interface KeyedProcessorContext<K, KOut, VOut> {

    /**
     * The key of the record or timer being handled.
     *
     * @throws IllegalStateException outside {@code process} and {@code onTimer} (in {@code init})
     */
    K currentKey();

    /**
     * The event time of the record being handled; in {@code onTimer}, the timer's time for an
     * event-time timer and the processing time it fired at for a processing-time timer.
     */
    long eventTime();

    /** The task's watermark (Long.MIN_VALUE before the first advance). */
    long watermark();

    /** The task's processing time (wall clock, or the TestDriver's virtual time). */
    long processingTime();

    /** Sends a record downstream, stamped with {@link #eventTime()}; the input record's headers go with it. */
    void forward(KOut key, VOut value);

    /**
     * Sends a record downstream with event time {@code eventTime}, from 0 to {@code Long.MAX_VALUE - 1}
     * ({@code Long.MAX_VALUE} is the end of input); another time throws {@link IllegalArgumentException},
     * which the processing-error handler decides on. Time arithmetic near the end of time saturates
     * rather than wraps only if it is written so: {@code Math.addExact} throws, {@code +} wraps.
     */
    void forward(KOut key, VOut value, long eventTime);

    /**
     * The store {@code name}, which must be one of those given to {@code process}.
     *
     * @throws IllegalArgumentException for any other name
     */
    <KS, VS> KeyValueStore<KS, VS> store(String name);

    /**
     * The window store {@code name}: one of those given to {@code process} declared with {@code
     * Materialized...withRetention(retention)}. Its entries are purged by the watermark.
     *
     * @throws IllegalArgumentException when the processor has no window store of that name
     */
    <KS, VS> WindowStore<KS, VS> windowStore(String name);

    /**
     * The global table in store {@code name} ({@code GlobalTable.storeName()}), read-only. It holds the
     * whole topic as the instance's global thread has read it so far: at least what the topic held when
     * the instance started, and updates as they come, outside this task's transaction.
     *
     * @throws IllegalArgumentException when the topology has no global table of that name
     */
    <KS, VS> ReadOnlyKeyValueStore<KS, VS> globalTable(String name);

    /**
     * A timer of the current key at {@code time}: an event-time timer fires once the watermark reaches
     * it, a processing-time timer once the clock does. One registered from {@code process} that is
     * already due fires right after {@code process} returns; one registered from {@code onTimer} at a
     * time its clock has reached waits until that clock moves on. Registering the same (key, domain, time) twice makes one timer. Timers are
     * state: they are logged, restored and committed with the stores.
     *
     * @throws IllegalStateException outside {@code process} and {@code onTimer} (there is no current key)
     */
    void registerTimer(TimeDomain domain, long time);

    /** Removes the current key's timer at {@code time}, if there is one. */
    void deleteTimer(TimeDomain domain, long time);
}
