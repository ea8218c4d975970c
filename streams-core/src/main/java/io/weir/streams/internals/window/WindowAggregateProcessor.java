package io.weir.streams.internals.window;

import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.dsl.Trigger;
import io.weir.streams.dsl.Window;
import io.weir.streams.dsl.Windowed;
import io.weir.streams.internals.TimeMath;
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

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * A keyed windowed aggregation — tumbling, hopping, sliding, global or session windows — with the
 * event-time rules of docs/concepts/event-time.md and the trigger and refinement rules of
 * docs/concepts/triggers-and-refinement.md. For a record with event time {@code t}, for each window
 * {@code [start, end)} it belongs to, judged against this operator's watermark {@code W} before the
 * record advances it:
 * <ul>
 *   <li>{@code W < end - 1}: on time; added to the window (an EARLY pane fires if the trigger counts
 *       records and the count is reached; interval early firings wait for the next tick).</li>
 *   <li>{@code end - 1 <= W < end - 1 + L}: late; added, and a LATE pane is emitted at once (or at the
 *       next late tick, or at the window's close, as the trigger says).</li>
 *   <li>{@code W >= end - 1 + L}: too late; the window's state is gone, the record is dropped for it
 *       (counted; written to the late-data topic if any).</li>
 * </ul>
 * When {@code W} reaches {@code end - 1} a window that changed since its last pane emits its ON_TIME
 * pane; when {@code W} reaches {@code end - 1 + L} the window closes: what a late interval or an
 * at-close trigger still holds is emitted, and the state of every window ending by then is purged by
 * one range delete. Session windows are found through a {@link SessionIndex} and merged when a record
 * overlaps several. Records with a null key are counted and skipped; records beyond the maximum future
 * skew are refused like too-late ones, with reason FUTURE_TIMESTAMP. Results are
 * {@code (Windowed<K>, aggregate)} records stamped {@code end - 1} (global windows: the largest event
 * time they hold), with {@link PaneInfo} headers.
 */
public final class WindowAggregateProcessor<K, V, A> implements Processor<K, V> {

    /**
     * What every windowed aggregation is built with.
     *
     * @param lateTopic the late-data side output, or null
     */
    public record Settings<K, V, A>(Aggregation<K, V, A> aggregation, long allowedLateness, Trigger trigger,
                                    Refinement refinement, String storeName, String lateTopic, Serde<K> keySerde,
                                    Serde<A> aggSerde) {
    }

    /** How session windows are formed; null for the other kinds. */
    private record SessionSpec(long gap, long maxLength, String indexStoreName) {
    }

    private final WindowFunction<K, V, A> windows;
    private final SessionSpec sessionSpec;
    private final Aggregation<K, V, A> aggregation;
    private final long allowedLateness;
    private final Trigger trigger;
    private final Refinement refinement;
    private final long earlyInterval;
    private final long earlyCount;
    private final long lateInterval;
    private final String storeName;
    private final String lateTopic;
    private final Serializer<K> keySerializer;
    private final Deserializer<K> keyDeserializer;
    private final Serializer<A> aggSerializer;
    private final Deserializer<A> aggDeserializer;

    private ProcessorContext context;
    private WriteBackCache store;
    private SessionIndex sessions;
    private LateDataOutput lateOutput;
    private String serdeTopic;
    private TaskMetrics.Counter nullKeys;
    private TaskMetrics.Counter lateAdded;
    private TaskMetrics.Counter panes;
    private TaskMetrics.Counter earlyPanes;
    private TaskMetrics.Counter onTimePanes;
    private TaskMetrics.Counter latePanes;
    private TaskMetrics.Counter retractions;
    private TaskMetrics.Counter sessionsMerged;
    /** Live windows per window end: tells which scans can be skipped and counts open windows exactly. */
    private final NavigableMap<Long, Integer> openByEnd = new TreeMap<>();
    /** Windows changed since their last pane, waiting for the next early or late tick (store keys). */
    private final Set<ByteBuffer> earlyChanged = new LinkedHashSet<>();
    private final Set<ByteBuffer> lateChanged = new LinkedHashSet<>();
    /**
     * Whether closing windows must be visited for changes not yet emitted: under an at-close or
     * late-interval trigger, or after a restart found such changes left by another trigger.
     */
    private boolean closeFires;
    /** The largest window end closed so far (MIN_VALUE: none yet). */
    private long closedThrough = Long.MIN_VALUE;
    private long nextEarlyTick;
    private long nextLateTick;
    private volatile long openWindows; // read by the open-windows gauge from other threads
    private long watermark = Long.MIN_VALUE;

    /** Over tumbling or hopping windows. */
    public static <K, V, A> WindowAggregateProcessor<K, V, A> fixed(WindowAssigner assigner, Settings<K, V, A> settings) {
        return new WindowAggregateProcessor<>(new FixedWindowFunction<>(assigner::windowsFor, settings.aggregation()), null,
                settings);
    }

    /** Over the one global window per key. */
    public static <K, V, A> WindowAggregateProcessor<K, V, A> global(Settings<K, V, A> settings) {
        List<Window> global = List.of(FixedWindowFunction.GLOBAL);
        return new WindowAggregateProcessor<>(new FixedWindowFunction<>(t -> global, settings.aggregation()), null, settings);
    }

    /**
     * Over sliding windows of {@code timeDifference}; the records themselves are kept in the store
     * {@code recordStoreName} (see {@link SlidingWindowFunction}).
     */
    public static <K, V, A> WindowAggregateProcessor<K, V, A> sliding(long timeDifference, String recordStoreName,
            Serde<V> valueSerde, Settings<K, V, A> settings) {
        return new WindowAggregateProcessor<>(new SlidingWindowFunction<>(timeDifference, settings.allowedLateness(),
                settings.aggregation(), recordStoreName, valueSerde), null, settings);
    }

    /**
     * Over session windows of {@code gap}, each at most {@code maxLength} long ({@code Long.MAX_VALUE}:
     * no cap), found per key through the index store {@code indexStoreName}.
     */
    public static <K, V, A> WindowAggregateProcessor<K, V, A> sessions(long gap, long maxLength, String indexStoreName,
            Settings<K, V, A> settings) {
        return new WindowAggregateProcessor<>(null, new SessionSpec(gap, maxLength, indexStoreName), settings);
    }

    private WindowAggregateProcessor(WindowFunction<K, V, A> windows, SessionSpec sessionSpec, Settings<K, V, A> settings) {
        this.windows = windows;
        this.sessionSpec = sessionSpec;
        this.aggregation = settings.aggregation();
        this.allowedLateness = settings.allowedLateness();
        this.trigger = settings.trigger();
        this.refinement = settings.refinement();
        this.earlyInterval = trigger.earlyFiringInterval().map(d -> d.toMillis()).orElse(0L);
        this.earlyCount = trigger.earlyFiringCount().orElse(0);
        this.lateInterval = trigger.lateFiringInterval().map(d -> d.toMillis()).orElse(0L);
        this.storeName = settings.storeName();
        this.lateTopic = settings.lateTopic();
        this.keySerializer = settings.keySerde().serializer();
        this.keyDeserializer = settings.keySerde().deserializer();
        this.aggSerializer = settings.aggSerde().serializer();
        this.aggDeserializer = settings.aggSerde().deserializer();
    }

    @Override
    public void init(ProcessorContext context) {
        this.context = context;
        this.store = context.stores().cache(storeName);
        if (sessionSpec != null) {
            sessions = new SessionIndex(context.stores().cache(sessionSpec.indexStoreName()), sessionSpec.maxLength());
        }
        this.lateOutput = new LateDataOutput(lateTopic, context);
        this.serdeTopic = storeName;
        String node = context.nodeName();
        TaskMetrics metrics = context.metrics();
        nullKeys = metrics.counter(node, WeirMetrics.NULL_KEY_RECORDS_SKIPPED);
        lateAdded = metrics.counter(node, WeirMetrics.LATE_RECORDS_ADDED);
        panes = metrics.counter(node, WeirMetrics.PANES_EMITTED);
        earlyPanes = metrics.counter(node, WeirMetrics.EARLY_PANES);
        onTimePanes = metrics.counter(node, WeirMetrics.ON_TIME_PANES);
        latePanes = metrics.counter(node, WeirMetrics.LATE_PANES);
        retractions = metrics.counter(node, WeirMetrics.RETRACTIONS);
        sessionsMerged = metrics.counter(node, WeirMetrics.SESSIONS_MERGED);
        metrics.gauge(node, WeirMetrics.OPEN_WINDOWS, () -> openWindows);
        watermark = context.watermark();
        nextEarlyTick = nextTick(context.processingTime(), earlyInterval);
        nextLateTick = nextTick(context.processingTime(), lateInterval);
        if (windows != null) {
            windows.init(context);
        }
        closeFires = trigger.firesAtWindowCloseOnly() || lateInterval > 0;
        try (KeyValueIterator it = store.range(null, null)) {
            while (it.hasNext()) {
                ByteEntry entry = it.next();
                long end = WindowKeys.end(entry.key());
                opened(end);
                if (WindowState.has(entry.value(), WindowState.PENDING)) {
                    boolean early = watermark < end - 1;
                    awaitTick(entry.key(), early);
                    // A late change the previous trigger had not emitted yet (the application changed
                    // triggers across the restart) goes out when its window closes, at the latest.
                    closeFires |= !early;
                }
            }
        }
        // Restored state may hold windows the previous owner had already closed (the changelog keeps
        // no tombstone for a range delete); the restored watermark says which. They fired before that
        // owner's commit, so nothing fires here.
        close(watermark, false);
        if (windows != null) {
            windows.purge(watermark);
        }
    }

    @Override
    public void process(Record<K, V> record) {
        if (record.key() == null) {
            nullKeys.increment();
            return;
        }
        if (record.beyondFutureSkew()) {
            lateOutput.future(record, watermark);
            return;
        }
        byte[] keyBytes = keySerializer.serialize(serdeTopic, record.key());
        if (sessions != null) {
            processSession(record, keyBytes);
            return;
        }
        for (Window window : windows.windowsFor(record.key(), keyBytes, record.timestamp())) {
            if (watermark >= closeTime(window)) {
                lateOutput.late(record, window, watermark);
                continue;
            }
            byte[] storeKey = WindowKeys.encode(window.end(), window.start(), keyBytes);
            byte[] stored = store.get(storeKey);
            WindowState<A> state;
            if (stored == null) {
                state = WindowState.empty(windows.initial(record.key(), window));
                opened(window.end());
            } else {
                state = decode(stored);
            }
            add(record, window, storeKey, state);
        }
        for (Window window : windows.windowsCreatedBy(record.timestamp())) {
            createIfAbsent(record.key(), keyBytes, window);
        }
        windows.offered(keyBytes, record, watermark);
    }

    /**
     * A record for session windows: it opens {@code [t, t + gap)}, which merges with every unsealed
     * session of the key it overlaps, unless the merged session would exceed the length cap: then the
     * record starts a new session and, if it is accepted, those sessions are sealed. Whether the record
     * is too late is judged against the session it would end up in; a refused record changes nothing.
     * The sessions merged into a new window lose their identity (and, retracting, their panes); a
     * session whose window the result already is keeps its own, pane count included.
     */
    private void processSession(Record<K, V> record, byte[] keyBytes) {
        long t = record.timestamp();
        Window proto = new Window(t, TimeMath.plus(t, sessionSpec.gap()));
        List<SessionIndex.Session> overlapping = sessions.overlapping(keyBytes, proto.start(), proto.end());
        List<Window> live = new ArrayList<>(2);
        for (SessionIndex.Session s : overlapping) {
            if (!s.sealed()) {
                live.add(s.window());
            }
        }
        Window merged = cover(proto, live);
        boolean overCap = merged.end() - merged.start() > sessionSpec.maxLength();
        if (overCap) {
            merged = proto;
        }
        if (watermark >= closeTime(merged)) {
            lateOutput.late(record, merged, watermark);
            return;
        }
        if (overCap) {
            for (Window full : live) {
                sessions.put(keyBytes, full, true);
            }
            live.clear();
        }
        // A session already spanning exactly the merged window (one of those merging, or a sealed one
        // the record falls in) takes the record: a key never has two sessions with the same window.
        Window target = merged;
        boolean exists = overlapping.stream().anyMatch(s -> s.window().equals(target));
        live.remove(merged);
        byte[] storeKey = WindowKeys.encode(merged.end(), merged.start(), keyBytes);
        WindowState<A> state = exists ? decode(store.get(storeKey)) : null;
        for (Window old : live) {
            byte[] oldKey = WindowKeys.encode(old.end(), old.start(), keyBytes);
            WindowState<A> oldState = decode(store.get(oldKey));
            retractMerged(record.key(), old, oldState);
            state = state == null ? oldState.rebased()
                    : state.absorbing(oldState, aggregation.merge(record.key(), state.aggregate(), oldState.aggregate()));
            store.delete(oldKey);
            sessions.remove(keyBytes, old);
            closed(old.end());
        }
        int combined = live.size() + (exists ? 1 : 0);
        if (combined > 1) {
            sessionsMerged.increment(combined - 1);
        }
        if (state == null) {
            state = WindowState.empty(aggregation.initial());
        }
        if (!exists) {
            opened(merged.end());
            sessions.put(keyBytes, merged, false);
        }
        add(record, merged, storeKey, state);
    }

    /** Adds the record to a window's state, then lets the trigger act on the change. */
    private void add(Record<K, V> record, Window window, byte[] storeKey, WindowState<A> state) {
        WindowState<A> added = state.added(aggregation.add(record.key(), record.value(), state.aggregate()),
                record.timestamp());
        if (watermark >= window.maxTimestamp()) {
            lateAdded.increment();
        }
        changed(record.key(), window, storeKey, added);
    }

    /**
     * Gives state to a window the record brought into existence without entering it, unless the
     * window already has state or is past its allowed lateness. Such a window created after the
     * watermark passed its end will never have an ON_TIME pane: the trigger treats it as a late change.
     */
    private void createIfAbsent(K key, byte[] keyBytes, Window window) {
        byte[] storeKey = WindowKeys.encode(window.end(), window.start(), keyBytes);
        if (watermark >= closeTime(window) || store.get(storeKey) != null) {
            return;
        }
        opened(window.end());
        changed(key, window, storeKey, WindowState.empty(windows.initial(key, window)).with(WindowState.PENDING));
    }

    /**
     * A window changed: fires what the trigger fires at once (a late pane per record, an early pane
     * when the count is reached), notes the window for the next tick when the trigger fires on an
     * interval, and stores the state.
     */
    private void changed(K key, Window window, byte[] storeKey, WindowState<A> state) {
        boolean early = watermark < window.maxTimestamp();
        if (!trigger.firesAtWindowCloseOnly()) {
            if (early ? earlyCount > 0 && state.sinceLastPane() >= earlyCount : lateInterval == 0) {
                state = emit(key, window, state, early ? PaneInfo.Timing.EARLY : PaneInfo.Timing.LATE);
            } else {
                awaitTick(storeKey, early);
            }
        }
        store.put(storeKey, encode(storeKey, state));
    }

    private void awaitTick(byte[] storeKey, boolean early) {
        if (early ? earlyInterval > 0 : lateInterval > 0) {
            (early ? earlyChanged : lateChanged).add(ByteBuffer.wrap(storeKey));
        }
    }

    @Override
    public void onWatermark(long newWatermark) {
        if (newWatermark <= watermark) {
            return;
        }
        long previous = watermark;
        watermark = newWatermark;
        fireOnTime(previous, newWatermark);
        close(newWatermark, true);
        if (windows != null) {
            windows.purge(newWatermark);
        }
    }

    @Override
    public void onProcessingTime(long now) {
        if (earlyInterval > 0 && now >= nextEarlyTick) {
            nextEarlyTick = nextTick(now, earlyInterval);
            fireChanged(earlyChanged, PaneInfo.Timing.EARLY);
        }
        if (lateInterval > 0 && now >= nextLateTick) {
            nextLateTick = nextTick(now, lateInterval);
            fireChanged(lateChanged, PaneInfo.Timing.LATE);
        }
    }

    /** The first multiple of {@code interval} after {@code now} (ticks are aligned, as a dashboard expects). */
    private static long nextTick(long now, long interval) {
        return interval == 0 ? Long.MAX_VALUE : TimeMath.plus(now - Math.floorMod(now, interval), interval);
    }

    /**
     * A tick: every noted window that still has unemitted changes and is still early (or late) emits a
     * pane. Windows the watermark has moved on since were handled by their ON_TIME pane or close.
     */
    private void fireChanged(Set<ByteBuffer> changed, PaneInfo.Timing timing) {
        for (ByteBuffer noted : changed) {
            byte[] storeKey = noted.array();
            byte[] stored = store.get(storeKey);
            if (stored == null || !WindowState.has(stored, WindowState.PENDING)) {
                continue;
            }
            Window window = window(storeKey);
            if ((watermark < window.maxTimestamp()) != (timing == PaneInfo.Timing.EARLY)) {
                continue;
            }
            WindowState<A> state = emit(key(storeKey), window, decode(stored), timing);
            store.put(storeKey, encode(storeKey, state));
        }
        changed.clear();
    }

    /**
     * The ON_TIME moment of every window whose last instant is in {@code (previous, current]}: a window
     * that changed since its last pane emits it.
     */
    private void fireOnTime(long previous, long current) {
        if (trigger.firesAtWindowCloseOnly()) {
            return;
        }
        // end - 1 in (previous, current]  <=>  end in [previous + 2, current + 2).
        long fromEnd = TimeMath.plus(previous, 2);
        long toEndExclusive = TimeMath.plus(current, 2);
        boolean toInfinity = toEndExclusive == Long.MAX_VALUE;
        if (openByEnd.subMap(fromEnd, true, toEndExclusive, toInfinity).isEmpty()) {
            return;
        }
        try (KeyValueIterator it = store.range(WindowKeys.endBound(fromEnd),
                toInfinity ? null : WindowKeys.endBound(toEndExclusive))) {
            // The watermark only moves forward, so no window in this range has met its ON_TIME moment
            // before: a window with nothing new since its last pane is left as it is, unwritten.
            while (it.hasNext()) {
                ByteEntry entry = it.next();
                if (WindowState.has(entry.value(), WindowState.PENDING)) {
                    WindowState<A> state = emit(key(entry.key()), window(entry.key()), decode(entry.value()),
                            PaneInfo.Timing.ON_TIME);
                    store.put(entry.key(), encode(entry.key(), state));
                }
            }
        }
    }

    /**
     * Closes every window with {@code end - 1 + L <= W}: emits any change of it not emitted yet (when
     * {@code fire}), drops it from the session index, and purges it from the window store — one range
     * delete when nothing needs visiting, else a delete per window visited.
     */
    private void close(long current, boolean fire) {
        // At the end of input everything goes, whatever the lateness.
        long lastClosingEnd = current == Long.MAX_VALUE ? Long.MAX_VALUE
                : TimeMath.plus(TimeMath.minus(current, allowedLateness), 1);
        NavigableMap<Long, Integer> expired = openByEnd.headMap(lastClosingEnd, true);
        if (expired.isEmpty()) {
            return;
        }
        // Ends up to closedThrough are gone already: starting there spares the store a walk over
        // what earlier closes deleted. The first close (at init) starts at the beginning, for windows
        // a previous owner had closed.
        byte[] from = closedThrough == Long.MIN_VALUE ? null : WindowKeys.endBound(TimeMath.plus(closedThrough, 1));
        long endExclusive = TimeMath.plus(lastClosingEnd, 1);
        byte[] to = endExclusive == Long.MAX_VALUE ? null : WindowKeys.endBound(endExclusive);
        boolean fires = fire && closeFires;
        if (fires || sessions != null) {
            // Visiting anyway, so delete by key: session ends are spread over every millisecond, and a
            // range delete per watermark step would pile up range tombstones that slow every RocksDB read.
            try (KeyValueIterator it = store.range(from, to)) {
                while (it.hasNext()) {
                    ByteEntry entry = it.next();
                    Window window = window(entry.key());
                    if (sessions != null) {
                        sessions.remove(WindowKeys.key(entry.key()), window);
                    }
                    if (fires && WindowState.has(entry.value(), WindowState.PENDING)) {
                        emit(key(entry.key()), window, decode(entry.value()), trigger.firesAtWindowCloseOnly()
                                ? PaneInfo.Timing.ON_TIME : PaneInfo.Timing.LATE);
                    }
                    store.delete(entry.key());
                }
            }
        } else {
            store.deleteRange(from, to);
        }
        for (int count : expired.values()) {
            openWindows -= count;
        }
        expired.clear();
        closedThrough = lastClosingEnd;
    }

    /**
     * Emits a pane of {@code window} — after a retraction of its previous pane under retracting
     * refinement — and returns the window's state after it.
     */
    private WindowState<A> emit(K key, Window window, WindowState<A> state, PaneInfo.Timing timing) {
        PaneInfo pane = new PaneInfo(timing, state.panes(), watermark >= closeTime(window));
        Windowed<K> windowed = new Windowed<>(key, window);
        long timestamp = window.end() == Long.MAX_VALUE ? state.maxEventTime() : window.maxTimestamp();
        if (refinement == Refinement.ACCUMULATING_AND_RETRACTING && state.panes() > 0) {
            forward(windowed, state.emitted(), timestamp, pane.asRetraction());
        }
        forward(windowed, state.aggregate(), timestamp, pane);
        panes.increment();
        (switch (timing) {
            case EARLY -> earlyPanes;
            case ON_TIME -> onTimePanes;
            case LATE -> latePanes;
        }).increment();
        // Results a reader waits for: make them visible without waiting out the commit interval.
        context.requestCommit();
        return state.afterPane(refinement == Refinement.DISCARDING ? aggregation.initial() : state.aggregate(),
                refinement == Refinement.ACCUMULATING_AND_RETRACTING ? state.aggregate() : null);
    }

    /** Under retracting refinement, a session merged into another takes back its last pane; it gets no other. */
    private void retractMerged(K key, Window old, WindowState<A> state) {
        if (refinement != Refinement.ACCUMULATING_AND_RETRACTING || state.panes() == 0) {
            return;
        }
        PaneInfo.Timing timing = watermark < old.maxTimestamp() ? PaneInfo.Timing.EARLY : PaneInfo.Timing.LATE;
        forward(new Windowed<>(key, old), state.emitted(), old.maxTimestamp(),
                new PaneInfo(timing, state.panes(), true, true));
    }

    private void forward(Windowed<K> key, A value, long timestamp, PaneInfo pane) {
        if (pane.isRetraction()) {
            retractions.increment();
        }
        context.forward(new Record<>(key, value, timestamp, pane.writeTo(new RecordHeaders()), null));
    }

    /** {@code end - 1 + L}: from this watermark on, the window is closed and its state gone. */
    private long closeTime(Window window) {
        return TimeMath.plus(window.maxTimestamp(), allowedLateness);
    }

    private static Window cover(Window first, List<Window> others) {
        long start = first.start();
        long end = first.end();
        for (Window w : others) {
            start = Math.min(start, w.start());
            end = Math.max(end, w.end());
        }
        return new Window(start, end);
    }

    /** A global window's panes are stamped with its largest event time, so only its state keeps it. */
    private byte[] encode(byte[] storeKey, WindowState<A> state) {
        return state.encode(aggSerializer, serdeTopic, WindowKeys.end(storeKey) == Long.MAX_VALUE);
    }

    private WindowState<A> decode(byte[] stored) {
        return WindowState.decode(stored, aggDeserializer, serdeTopic);
    }

    private K key(byte[] storeKey) {
        return keyDeserializer.deserialize(serdeTopic, WindowKeys.key(storeKey));
    }

    private static Window window(byte[] storeKey) {
        return new Window(WindowKeys.start(storeKey), WindowKeys.end(storeKey));
    }

    private void opened(long end) {
        openByEnd.merge(end, 1, Integer::sum);
        openWindows++;
    }

    private void closed(long end) {
        openByEnd.computeIfPresent(end, (e, count) -> count == 1 ? null : count - 1);
        openWindows--;
    }

    /**
     * Every window held in a window store (the cache's view: committed and uncommitted writes), for
     * tests and queries, in window-end order. Under discarding refinement a window holds only what
     * arrived since its last pane.
     */
    public static <K, A> List<WindowEntry<K, A>> read(WriteBackCache store, Serde<K> keySerde, Serde<A> aggSerde) {
        String topic = store.name();
        List<WindowEntry<K, A>> entries = new ArrayList<>();
        try (KeyValueIterator it = store.range(null, null)) {
            while (it.hasNext()) {
                ByteEntry e = it.next();
                WindowState<A> state = WindowState.decode(e.value(), aggSerde.deserializer(), topic);
                entries.add(new WindowEntry<>(keySerde.deserializer().deserialize(topic, WindowKeys.key(e.key())),
                        window(e.key()), state.aggregate()));
            }
        }
        return entries;
    }
}
