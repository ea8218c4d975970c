package io.weir.streams.internals.keyed;

import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.operator.EventTimeGate;
import io.weir.streams.internals.operator.LateDataOutput;
import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.processor.SourceInfo;
import io.weir.streams.internals.state.SerdeKeyValueStore;
import io.weir.streams.internals.state.SerdeWindowStore;
import io.weir.streams.state.KeyValueStore;
import io.weir.streams.state.ReadOnlyKeyValueStore;
import io.weir.streams.state.WindowStore;
import io.weir.streams.time.TimeDomain;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Runs a user's {@link KeyedProcessor} in a task and is its context. Records with a null key are
 * counted and skipped, records beyond the maximum future skew are counted and dropped (like a windowed
 * aggregation without a late-data topic); every other record reaches the processor. Event-time timers
 * fire when the watermark reaches them — right after a record or a processing-time callback if it
 * registered one the watermark has already passed — and processing-time timers when the clock does.
 */
public final class KeyedProcessorNode<K, V, KOut, VOut>
        implements Processor<K, V>, KeyedProcessorContext<K, KOut, VOut> {

    /**
     * A store the processor declared, with its serdes.
     *
     * @param retention for a window store, how long its entries are kept after their time (ms); -1 for
     *                  a key-value store
     */
    public record StoreSerdes(String name, Serde<?> keySerde, Serde<?> valueSerde, long retention) {}

    private static final Headers NO_HEADERS = new RecordHeaders();

    private final KeyedProcessor<K, V, KOut, VOut> processor;
    private final Serde<K> keySerde;
    private final List<StoreSerdes> storeSerdes;
    private final String timerStore;
    /** The watermark the processor sees, when not the one the task tells the node. */
    private final @Nullable LongSupplier ownWatermark;

    private final Map<String, KeyValueStore<?, ?>> stores = new LinkedHashMap<>();
    private final Map<String, SerdeWindowStore<?, ?>> windowStores = new LinkedHashMap<>();

    private ProcessorContext context;
    private KeyedTimers timers;
    private EventTimeGate gate;
    private Counter timersFired;
    private @Nullable K currentKey;
    private byte @Nullable [] currentKeyBytes;
    private long eventTime;
    private Headers headers = NO_HEADERS;
    private @Nullable SourceInfo source;

    public KeyedProcessorNode(
            KeyedProcessor<K, V, KOut, VOut> processor,
            Serde<K> keySerde,
            List<StoreSerdes> storeSerdes,
            String timerStore) {
        this(processor, keySerde, storeSerdes, timerStore, null);
    }

    /**
     * A node whose processor sees the watermark {@code ownWatermark} gives instead of the one the task tells
     * the node: {@code processAsync}'s, which runs behind the answers it waits for. Its {@link
     * #onWatermark} is then called with each advance of that watermark.
     */
    public KeyedProcessorNode(
            KeyedProcessor<K, V, KOut, VOut> processor,
            Serde<K> keySerde,
            List<StoreSerdes> storeSerdes,
            String timerStore,
            @Nullable LongSupplier ownWatermark) {
        this.processor = processor;
        this.keySerde = keySerde;
        this.storeSerdes = storeSerdes;
        this.timerStore = timerStore;
        this.ownWatermark = ownWatermark;
    }

    @Override
    public void init(ProcessorContext context) {
        this.context = context;
        for (StoreSerdes s : storeSerdes) {
            if (s.retention() < 0) {
                stores.put(s.name(), typed(s));
            } else {
                windowStores.put(s.name(), windowed(s));
            }
        }
        // Restored state may hold entries an earlier owner had purged (a range delete leaves no tombstone).
        purgeWindowStores(watermark());
        timers = new KeyedTimers(context.stores().cache(timerStore));
        TaskMetrics metrics = context.metrics();
        // A keyed processor has no late-data topic: future-skewed records are counted and dropped.
        gate = new EventTimeGate(context, new LateDataOutput(null, context));
        timersFired = metrics.counter(context.nodeName(), WeirMetrics.TIMERS_FIRED);
        processor.init(this);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private KeyValueStore<?, ?> typed(StoreSerdes s) {
        return new SerdeKeyValueStore(context.stores().cache(s.name()), s.keySerde(), s.valueSerde());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private SerdeWindowStore<?, ?> windowed(StoreSerdes s) {
        return new SerdeWindowStore(
                context.stores().cache(s.name()),
                s.keySerde(),
                s.valueSerde(),
                s.retention(),
                context.metrics().counter(s.name(), WeirMetrics.EXPIRED_PUTS_DROPPED));
    }

    private void purgeWindowStores(long watermark) {
        for (SerdeWindowStore<?, ?> store : windowStores.values()) {
            store.purge(watermark);
        }
    }

    @Override
    public void process(Record<K, V> record) {
        if (!gate.admits(record)) {
            return;
        }
        enter(record.key(), null, record.timestamp(), record.headers(), record.source());
        try {
            processor.process(record.key(), record.value(), this);
        } finally {
            leave();
        }
        fireDue(TimeDomain.EVENT_TIME, watermark());
    }

    @Override
    public void onWatermark(long watermark) {
        gate.advance(watermark);
        // Purged first: an entry whose retention the watermark reached is never read again, not even by a timer.
        purgeWindowStores(watermark);
        fireDue(TimeDomain.EVENT_TIME, watermark);
    }

    @Override
    public void onProcessingTime(long now) {
        fireDue(TimeDomain.PROCESSING_TIME, now);
        // A processing-time callback may have registered an event-time timer the watermark has passed.
        fireDue(TimeDomain.EVENT_TIME, watermark());
    }

    /**
     * One round: the timers due when it starts fire one by one in time order, each only if no callback
     * deleted it meanwhile. Timers that callbacks register during the round at a time it has reached
     * wait until the clock moves past it (see {@link KeyedTimers}).
     */
    private void fireDue(TimeDomain domain, long now) {
        if (!timers.mayBeDue(domain, now)) {
            return;
        }
        List<KeyedTimers.Timer> due = timers.beginRound(domain, now);
        try {
            for (KeyedTimers.Timer timer : due) {
                if (timers.take(domain, timer)) {
                    fire(timer, domain, now);
                }
            }
        } finally {
            timers.endRound(domain);
        }
    }

    private void fire(KeyedTimers.Timer timer, TimeDomain domain, long now) {
        K key = keySerde.deserializer().deserialize(timerStore, timer.key());
        enter(key, timer.key(), domain == TimeDomain.EVENT_TIME ? timer.time() : now, NO_HEADERS, null);
        try {
            timersFired.increment();
            processor.onTimer(timer.time(), domain, this);
        } finally {
            leave();
        }
    }

    private void enter(
            K key, byte @Nullable [] keyBytes, long time, Headers recordHeaders, @Nullable SourceInfo recordSource) {
        currentKey = key;
        currentKeyBytes = keyBytes;
        eventTime = time;
        headers = recordHeaders;
        source = recordSource;
    }

    private void leave() {
        currentKey = null;
        currentKeyBytes = null;
        headers = NO_HEADERS;
        source = null;
    }

    @Override
    public K currentKey() {
        K key = currentKey;
        if (key == null) {
            throw new IllegalStateException("No current key: call currentKey from process or onTimer, not init");
        }
        return key;
    }

    @Override
    public long eventTime() {
        return eventTime;
    }

    @Override
    public long watermark() {
        return ownWatermark == null ? context.watermark() : ownWatermark.getAsLong();
    }

    @Override
    public long processingTime() {
        return context.processingTime();
    }

    @Override
    public void forward(KOut key, VOut value) {
        forward(key, value, eventTime);
    }

    @Override
    public void forward(KOut key, VOut value, long time) {
        if (time < 0 || time == Long.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "Processor '" + context.nodeName() + "' forwarded a record with event time " + time
                            + ": event times are from 0 to Long.MAX_VALUE - 1 (Long.MAX_VALUE is the end of input)");
        }
        context.forward(new Record<>(key, value, time, headers, source));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <KS, VS> KeyValueStore<KS, VS> store(String name) {
        KeyValueStore<?, ?> store = stores.get(name);
        if (store == null) {
            throw new IllegalArgumentException("Processor '" + context.nodeName() + "' has no key-value store named '"
                    + name + "'; its key-value stores are " + stores.keySet() + " and its window stores "
                    + windowStores.keySet() + " (read those with windowStore(name))");
        }
        return (KeyValueStore<KS, VS>) store;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <KS, VS> ReadOnlyKeyValueStore<KS, VS> globalTable(String name) {
        return (ReadOnlyKeyValueStore<KS, VS>) context.stores().globalTable(name);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <KS, VS> WindowStore<KS, VS> windowStore(String name) {
        SerdeWindowStore<?, ?> store = windowStores.get(name);
        if (store == null) {
            throw new IllegalArgumentException("Processor '" + context.nodeName() + "' has no window store named '"
                    + name + "'; its window stores (declared withRetention) are " + windowStores.keySet()
                    + " and its key-value stores " + stores.keySet());
        }
        return (WindowStore<KS, VS>) store;
    }

    @Override
    public void registerTimer(TimeDomain domain, long time) {
        timers.register(domain, time, currentKeyBytes("registerTimer"));
    }

    @Override
    public void deleteTimer(TimeDomain domain, long time) {
        timers.delete(domain, time, currentKeyBytes("deleteTimer"));
    }

    private byte[] currentKeyBytes(String method) {
        if (currentKey == null) {
            throw new IllegalStateException(method + " needs a current key: call it from process or onTimer, not init");
        }
        if (currentKeyBytes == null) {
            currentKeyBytes = keySerde.serializer().serialize(timerStore, currentKey);
        }
        return currentKeyBytes;
    }

    @Override
    public void close() {
        processor.close();
    }
}
