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
     * @return the current key, never null
     * @throws IllegalStateException outside {@code process} and {@code onTimer} (in {@code init})
     */
    K currentKey();

    /**
     * The event time of the record being handled; in {@code onTimer}, the timer's time for an
     * event-time timer and the processing time it fired at for a processing-time timer.
     *
     * @return the event time, in epoch milliseconds
     */
    long eventTime();

    /**
     * The task's watermark (Long.MIN_VALUE before the first advance).
     *
     * @return the watermark, in epoch milliseconds
     */
    long watermark();

    /**
     * The task's processing time (wall clock, or the TestDriver's virtual time).
     *
     * @return the processing time, in epoch milliseconds
     */
    long processingTime();

    /**
     * Sends a record downstream, stamped with {@link #eventTime()}; the input record's headers go with it.
     *
     * @param key the output record's key
     * @param value the output record's value
     */
    void forward(KOut key, VOut value);

    /**
     * Sends a record downstream with event time {@code eventTime}, from 0 to {@code Long.MAX_VALUE - 1}
     * ({@code Long.MAX_VALUE} is the end of input); another time throws {@link IllegalArgumentException},
     * which the processing-error handler decides on. Time arithmetic near the end of time saturates
     * rather than wraps only if it is written so: {@code Math.addExact} throws, {@code +} wraps.
     *
     * @param key the output record's key
     * @param value the output record's value
     * @param eventTime the output record's event time, in epoch milliseconds
     */
    void forward(KOut key, VOut value, long eventTime);

    /**
     * The store {@code name}, which must be one of those given to {@code process}.
     *
     * @param <KS> the store's key type
     * @param <VS> the store's value type
     * @param name the store's name, as given with {@code Materialized.as}
     * @return the store, read-write, in this task's transaction
     * @throws IllegalArgumentException for any other name
     */
    <KS, VS> KeyValueStore<KS, VS> store(String name);

    /**
     * The window store {@code name}: one of those given to {@code process} declared with {@code
     * Materialized...withRetention(retention)}. Its entries are purged by the watermark.
     *
     * @param <KS> the store's key type
     * @param <VS> the store's value type
     * @param name the store's name, as given with {@code Materialized.as}
     * @return the window store, read-write, in this task's transaction
     * @throws IllegalArgumentException when the processor has no window store of that name
     */
    <KS, VS> WindowStore<KS, VS> windowStore(String name);

    /**
     * The global table in store {@code name} ({@code GlobalTable.storeName()}), read-only. It holds the
     * whole topic as the instance's global thread has read it so far: at least what the topic held when
     * the instance started, and updates as they come, outside this task's transaction.
     *
     * @param <KS> the table's key type
     * @param <VS> the table's value type
     * @param name the global table's store name
     * @return a read-only view of the global table
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
     * @param domain the clock the timer follows: the watermark or the wall clock
     * @param time when the timer fires, in epoch milliseconds
     * @throws IllegalStateException outside {@code process} and {@code onTimer} (there is no current key)
     */
    void registerTimer(TimeDomain domain, long time);

    /**
     * Removes the current key's timer at {@code time}, if there is one.
     *
     * @param domain the clock of the timer to remove
     * @param time the time of the timer to remove, in epoch milliseconds
     */
    void deleteTimer(TimeDomain domain, long time);
}
