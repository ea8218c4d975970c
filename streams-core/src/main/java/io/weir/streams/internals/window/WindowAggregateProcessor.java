package io.weir.streams.internals.window;

import io.weir.streams.internals.TimeMath;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Window;
import io.weir.streams.dsl.Windowed;
import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.state.ByteEntry;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.WindowKeys;
import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.state.WindowEntry;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A keyed windowed aggregation — tumbling, hopping or sliding windows, as its {@link WindowFunction}
 * says — with the event-time rules of docs/concepts/event-time.md. For a record with event time
 * {@code t}, for each window {@code [start, end)} it belongs to, judged against this operator's watermark {@code W}
 * before the record advances it:
 * <ul>
 *   <li>{@code W < end - 1}: on time; added to the window.</li>
 *   <li>{@code end - 1 <= W < end - 1 + L}: late; added, and a LATE pane is emitted at once.</li>
 *   <li>{@code W >= end - 1 + L}: too late; the window's state is gone, the record is dropped for it
 *       (counted; written to the late-data topic if any).</li>
 * </ul>
 * When {@code W} reaches {@code end - 1} a window that holds data emits its ON_TIME pane (a window
 * that got no data in time emits none); when {@code W} reaches {@code end - 1 + L} its state is
 * purged by one range delete of every window ending by then. Records with a null key are counted and
 * skipped; records beyond the maximum future skew are refused like too-late ones, with reason
 * FUTURE_TIMESTAMP. Results are {@code (Windowed<K>, aggregate)} records stamped {@code end - 1},
 * with {@link PaneInfo} headers.
 */
public final class WindowAggregateProcessor<K, V, A> implements Processor<K, V> {

    private final WindowFunction<K, V, A> windows;
    private final long allowedLateness;
    private final Aggregation<K, V, A> aggregation;
    private final String storeName;
    private final String lateTopic;
    private final Serializer<K> keySerializer;
    private final Deserializer<K> keyDeserializer;
    private final Serializer<A> aggSerializer;
    private final Deserializer<A> aggDeserializer;

    private ProcessorContext context;
    private WriteBackCache store;
    private LateDataOutput lateOutput;
    private String serdeTopic;
    private TaskMetrics.Counter nullKeys;
    private TaskMetrics.Counter lateAdded;
    private TaskMetrics.Counter panes;
    private TaskMetrics.Counter onTimePanes;
    private TaskMetrics.Counter latePanes;
    /** Live windows per window end: tells which scans can be skipped and counts open windows exactly. */
    private final NavigableMap<Long, Integer> openByEnd = new TreeMap<>();
    private long openWindows;
    private long watermark = Long.MIN_VALUE;

    /** Over tumbling or hopping windows. */
    public static <K, V, A> WindowAggregateProcessor<K, V, A> fixed(WindowAssigner assigner, long allowedLateness,
            Aggregation<K, V, A> aggregation, String storeName, String lateTopic, Serde<K> keySerde, Serde<A> aggSerde) {
        return new WindowAggregateProcessor<>(new FixedWindowFunction<>(assigner, aggregation), allowedLateness, aggregation,
                storeName, lateTopic, keySerde, aggSerde);
    }

    /**
     * Over sliding windows of {@code timeDifference}; the records themselves are kept in the store
     * {@code recordStoreName} (see {@link SlidingWindowFunction}).
     */
    public static <K, V, A> WindowAggregateProcessor<K, V, A> sliding(long timeDifference, long allowedLateness,
            Aggregation<K, V, A> aggregation, String storeName, String recordStoreName, String lateTopic,
            Serde<K> keySerde, Serde<V> valueSerde, Serde<A> aggSerde) {
        return new WindowAggregateProcessor<>(new SlidingWindowFunction<>(timeDifference, allowedLateness, aggregation,
                recordStoreName, valueSerde), allowedLateness, aggregation, storeName, lateTopic, keySerde, aggSerde);
    }

    private WindowAggregateProcessor(WindowFunction<K, V, A> windows, long allowedLateness, Aggregation<K, V, A> aggregation,
                                     String storeName, String lateTopic, Serde<K> keySerde, Serde<A> aggSerde) {
        this.windows = windows;
        this.allowedLateness = allowedLateness;
        this.aggregation = aggregation;
        this.storeName = storeName;
        this.lateTopic = lateTopic;
        this.keySerializer = keySerde.serializer();
        this.keyDeserializer = keySerde.deserializer();
        this.aggSerializer = aggSerde.serializer();
        this.aggDeserializer = aggSerde.deserializer();
    }

    @Override
    public void init(ProcessorContext context) {
        this.context = context;
        this.store = context.stores().cache(storeName);
        this.lateOutput = new LateDataOutput(lateTopic, context);
        this.serdeTopic = storeName;
        String node = context.nodeName();
        TaskMetrics metrics = context.metrics();
        nullKeys = metrics.counter(node, WeirMetrics.NULL_KEY_RECORDS_SKIPPED);
        lateAdded = metrics.counter(node, WeirMetrics.LATE_RECORDS_ADDED);
        panes = metrics.counter(node, WeirMetrics.PANES_EMITTED);
        onTimePanes = metrics.counter(node, WeirMetrics.ON_TIME_PANES);
        latePanes = metrics.counter(node, WeirMetrics.LATE_PANES);
        metrics.gauge(node, WeirMetrics.OPEN_WINDOWS, () -> openWindows);
        watermark = context.watermark();
        windows.init(context);
        try (KeyValueIterator it = store.range(null, null)) {
            while (it.hasNext()) {
                opened(WindowKeys.end(it.next().key()));
            }
        }
        // Restored state may hold windows the previous owner had already purged (the changelog keeps
        // no tombstone for a range delete); the restored watermark says which. Windows whose end it
        // passed fired before that owner's commit, so nothing fires here.
        purge(watermark);
        windows.purge(watermark);
    }

    @Override
    public void process(Record<K, V> record) {
        if (record.key() == null) {
            nullKeys.increment();
            return;
        }
        if (record.source() != null && record.source().futureEventTime()) {
            lateOutput.future(record, watermark);
            return;
        }
        byte[] keyBytes = keySerializer.serialize(serdeTopic, record.key());
        for (Window window : windows.windowsFor(record.key(), keyBytes, record.timestamp())) {
            if (watermark >= purgeTime(window)) {
                lateOutput.late(record, window, watermark);
                continue;
            }
            byte[] storeKey = WindowKeys.encode(window.end(), window.start(), keyBytes);
            byte[] stored = store.get(storeKey);
            WindowState<A> state;
            if (stored == null) {
                state = new WindowState<>(windows.initial(record.key(), window), 0, false);
                opened(window.end());
            } else {
                state = WindowState.decode(stored, aggDeserializer, serdeTopic);
            }
            state = state.withAggregate(aggregation.add(record.key(), record.value(), state.aggregate()));
            if (watermark >= window.maxTimestamp()) {
                lateAdded.increment();
                state = emit(record.key(), window, state, PaneInfo.Timing.LATE);
            }
            store.put(storeKey, state.encode(aggSerializer, serdeTopic));
        }
        for (Window window : windows.windowsCreatedBy(record.timestamp())) {
            createIfAbsent(record.key(), keyBytes, window);
        }
        windows.offered(keyBytes, record, watermark);
    }

    /**
     * Gives state to a window the record brought into existence without entering it, unless the
     * window already has state or is past its allowed lateness. Such a window created after the
     * watermark passed its end will never have an ON_TIME pane, so it emits a LATE one at once.
     */
    private void createIfAbsent(K key, byte[] keyBytes, Window window) {
        byte[] storeKey = WindowKeys.encode(window.end(), window.start(), keyBytes);
        if (watermark >= purgeTime(window) || store.get(storeKey) != null) {
            return;
        }
        WindowState<A> state = new WindowState<>(windows.initial(key, window), 0, false);
        opened(window.end());
        if (watermark >= window.maxTimestamp()) {
            state = emit(key, window, state, PaneInfo.Timing.LATE);
        }
        store.put(storeKey, state.encode(aggSerializer, serdeTopic));
    }

    @Override
    public void onWatermark(long newWatermark) {
        if (newWatermark <= watermark) {
            return;
        }
        long previous = watermark;
        watermark = newWatermark;
        fireOnTime(previous, newWatermark);
        purge(newWatermark);
        windows.purge(newWatermark);
    }

    /** Emits the ON_TIME pane of every window whose last instant is in {@code (previous, current]}. */
    private void fireOnTime(long previous, long current) {
        // end - 1 in (previous, current]  <=>  end in [previous + 2, current + 2).
        long fromEnd = TimeMath.plus(previous, 2);
        long toEndExclusive = TimeMath.plus(current, 2);
        if (openByEnd.subMap(fromEnd, true, toEndExclusive, false).isEmpty()) {
            return;
        }
        boolean fired = false;
        try (KeyValueIterator it = store.range(WindowKeys.endBound(fromEnd),
                toEndExclusive == Long.MAX_VALUE ? null : WindowKeys.endBound(toEndExclusive))) {
            while (it.hasNext()) {
                ByteEntry entry = it.next();
                WindowState<A> state = WindowState.decode(entry.value(), aggDeserializer, serdeTopic);
                if (state.onTimeFired()) {
                    continue;
                }
                Window window = new Window(WindowKeys.start(entry.key()), WindowKeys.end(entry.key()));
                K key = keyDeserializer.deserialize(serdeTopic, WindowKeys.key(entry.key()));
                state = emit(key, window, state, PaneInfo.Timing.ON_TIME);
                fired = true;
                if (watermark < purgeTime(window)) {
                    store.put(entry.key(), state.encode(aggSerializer, serdeTopic));
                }
            }
        }
        if (fired) {
            // On-time panes are the results readers wait for: make them visible without waiting out the interval.
            context.requestCommit();
        }
    }

    /** Drops the state of every window with {@code end - 1 + L <= W}: one range delete. */
    private void purge(long current) {
        // At the end of input everything goes, whatever the lateness.
        long lastPurgeableEnd = current == Long.MAX_VALUE ? Long.MAX_VALUE
                : TimeMath.plus(TimeMath.minus(current, allowedLateness), 1);
        NavigableMap<Long, Integer> expired = openByEnd.headMap(lastPurgeableEnd, true);
        if (expired.isEmpty()) {
            return;
        }
        for (int count : expired.values()) {
            openWindows -= count;
        }
        expired.clear();
        long endExclusive = TimeMath.plus(lastPurgeableEnd, 1);
        store.deleteRange(null, endExclusive == Long.MAX_VALUE ? null : WindowKeys.endBound(endExclusive));
    }

    private WindowState<A> emit(K key, Window window, WindowState<A> state, PaneInfo.Timing timing) {
        boolean last = watermark >= purgeTime(window);
        PaneInfo pane = new PaneInfo(timing, state.panes(), last);
        context.forward(new Record<>(new Windowed<>(key, window), state.aggregate(), window.maxTimestamp(),
                pane.writeTo(new RecordHeaders()), null));
        panes.increment();
        (timing == PaneInfo.Timing.ON_TIME ? onTimePanes : latePanes).increment();
        return state.afterPane(timing == PaneInfo.Timing.ON_TIME);
    }

    /** {@code end - 1 + L}: from this watermark on, the window's state is gone. */
    private long purgeTime(Window window) {
        return TimeMath.plus(window.maxTimestamp(), allowedLateness);
    }

    private void opened(long end) {
        openByEnd.merge(end, 1, Integer::sum);
        openWindows++;
    }

    /**
     * Every window held in a window store (the cache's view: committed and uncommitted writes), for
     * tests and queries, in window-end order.
     */
    public static <K, A> List<WindowEntry<K, A>> read(WriteBackCache store, Serde<K> keySerde, Serde<A> aggSerde) {
        String topic = store.name();
        List<WindowEntry<K, A>> entries = new ArrayList<>();
        try (KeyValueIterator it = store.range(null, null)) {
            while (it.hasNext()) {
                ByteEntry e = it.next();
                WindowState<A> state = WindowState.decode(e.value(), aggSerde.deserializer(), topic);
                entries.add(new WindowEntry<>(keySerde.deserializer().deserialize(topic, WindowKeys.key(e.key())),
                        new Window(WindowKeys.start(e.key()), WindowKeys.end(e.key())), state.aggregate()));
            }
        }
        return entries;
    }
}
