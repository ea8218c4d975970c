package io.weir.streams.internals.window;

import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.dsl.Trigger;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.metrics.Counter;
import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.operator.Aggregation;
import io.weir.streams.internals.operator.EventTimeGate;
import io.weir.streams.internals.operator.EventTimeIndex;
import io.weir.streams.internals.operator.LateDataOutput;
import io.weir.streams.internals.operator.PaneEmitter;
import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.state.ByteEntry;
import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.WindowKeys;
import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.time.Window;
import io.weir.streams.time.Windowed;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A keyed windowed aggregation: tumbling, hopping, sliding, session or global windows, whichever its
 * {@link WindowAssigner} makes. The rules it implements are stated where users read them:
 * lateness and purging in {@link io.weir.streams.dsl.Windows}, when panes fire in {@link Trigger},
 * what they hold in {@link Refinement}, their headers in {@link PaneInfo}, merging in
 * {@link io.weir.streams.dsl.SessionWindows}; docs/architecture.md shows where this operator sits.
 *
 * <p>This class orchestrates; each concept is a part of its own: the assigner says which windows a
 * record goes to (and which merge), the {@link TriggerRunner} when a change fires, the
 * {@link PaneEmitter} how a pane travels, the {@link EventTimeIndex} which watermark advances find
 * windows to fire or close, the {@link WindowStateCodec} how a window's {@link WindowState} is stored,
 * and {@link LateDataOutput} what happens to a record refused as too late.
 *
 * <p>Per record, against the watermark {@code W} before the record advances it: each window
 * {@code W} has closed ({@code W >= end - 1 + L}) refuses it; every other one takes it and tells the
 * trigger. Per watermark advance: windows whose end the watermark reached fire ON_TIME, then windows
 * past their allowed lateness close (their unemitted changes fire if the trigger says so) and are
 * purged — one range delete, or a delete per window when they must be visited anyway. Records with a
 * null key are counted and skipped. Results are {@code (Windowed<K>, aggregate)} records stamped
 * {@code end - 1} (global windows: the largest event time they hold).
 *
 * <p>Why one class: what is left is the cycle itself, per record and per watermark advance, over one
 * store, one index and one trigger runner; each method is one step of it.
 */
public final class WindowAggregateProcessor<K, V, A> implements Processor<K, V> {

    /**
     * What every windowed aggregation is built with.
     *
     * @param lateTopic the late-data side output, or null
     * @param mergeLogs the stores of the merge logs of the table views of the results ({@link
     *     MergedSessions}); filled while the topology is built, as views are asked for, and read when a
     *     task makes its processor
     */
    public record Settings<K, V, A>(
            Aggregation<K, V, A> aggregation,
            long allowedLateness,
            Trigger trigger,
            Refinement refinement,
            String storeName,
            @Nullable String lateTopic,
            Serde<K> keySerde,
            Serde<A> aggSerde,
            Set<String> mergeLogs) {}

    private final WindowAssigner<K, V, A> assigner;
    private final Aggregation<K, V, A> aggregation;
    private final long allowedLateness;
    private final Trigger trigger;
    private final Refinement refinement;
    private final String storeName;
    private final @Nullable String lateTopic;
    private final Serializer<K> keySerializer;
    private final Deserializer<K> keyDeserializer;
    private final WindowStateCodec<A> codec;
    private static final byte[] MERGED = new byte[0];
    /** Live windows by end: which watermark advances find windows to fire or close; counts them for the gauge. */
    private final EventTimeIndex openWindows = new EventTimeIndex();

    private final Set<String> mergeLogNames;
    private WriteBackCache store;
    private List<WriteBackCache> mergeLogs = List.of();
    private TriggerRunner triggers;
    private PaneEmitter<Windowed<K>, A> panes;
    private LateDataOutput lateOutput;
    private EventTimeGate gate;
    private Counter lateAdded;

    /** Over the windows {@code assigner} makes; one instance per task. */
    public WindowAggregateProcessor(WindowAssigner<K, V, A> assigner, Settings<K, V, A> settings) {
        this.assigner = assigner;
        this.aggregation = settings.aggregation();
        this.allowedLateness = settings.allowedLateness();
        this.trigger = settings.trigger();
        this.refinement = settings.refinement();
        this.storeName = settings.storeName();
        this.lateTopic = settings.lateTopic();
        this.keySerializer = settings.keySerde().serializer();
        this.keyDeserializer = settings.keySerde().deserializer();
        this.codec = new WindowStateCodec<>(storeName, settings.aggSerde());
        this.mergeLogNames = settings.mergeLogs();
    }

    @Override
    public void init(ProcessorContext context) {
        this.store = context.stores().cache(storeName);
        this.mergeLogs = mergeLogNames.stream().map(context.stores()::cache).toList();
        this.triggers = new TriggerRunner(trigger, context.processingTime());
        this.panes = new PaneEmitter<>(refinement, context);
        this.lateOutput = new LateDataOutput(lateTopic, context);
        TaskMetrics metrics = context.metrics();
        gate = new EventTimeGate(context, lateOutput, allowedLateness);
        lateAdded = metrics.counter(context.nodeName(), WeirMetrics.LATE_RECORDS_ADDED);
        metrics.gauge(context.nodeName(), WeirMetrics.OPEN_WINDOWS, openWindows::size);
        assigner.init(context);
        try (KeyValueIterator it = store.range(null, null)) {
            while (it.hasNext()) {
                ByteEntry entry = it.next();
                long end = WindowKeys.end(entry.key());
                openWindows.add(end);
                if (codec.pending(entry.value())) {
                    triggers.restored(entry.key(), gate.watermark() < end - 1);
                }
            }
        }
        // Restored state may hold windows the previous owner had already closed (the changelog keeps
        // no tombstone for a range delete); the restored watermark says which. They fired before that
        // owner's commit, so nothing fires here.
        close(gate.watermark(), false);
        assigner.purge(gate.watermark());
    }

    @Override
    public void process(Record<K, V> record) {
        if (!gate.admits(record)) {
            return;
        }
        K key = record.key();
        byte[] keyBytes = keySerializer.serialize(storeName, key);
        List<Window> refused = null;
        boolean taken = false;
        for (WindowAssignment assignment : assigner.assign(key, keyBytes, record.timestamp())) {
            Window window = assignment.window();
            if (gate.closed(window.maxTimestamp())) {
                if (refused == null) {
                    refused = new ArrayList<>(2);
                }
                refused.add(window);
                continue;
            }
            taken = true;
            assigner.accepted(keyBytes, assignment);
            byte[] storeKey = WindowKeys.encode(window.end(), window.start(), keyBytes);
            WindowState<A> state = assignment.mayExist() ? stored(storeKey) : null;
            boolean opens = state == null;
            for (Window old : assignment.merged()) {
                state = absorb(key, keyBytes, state, old, WindowKeys.encode(old.end(), old.start(), keyBytes));
            }
            if (state == null) {
                state = WindowState.empty(assigner.initial(key, window, aggregation));
            }
            if (opens) {
                openWindows.add(window.end());
            }
            add(record, window, storeKey, state);
        }
        if (refused != null) {
            lateOutput.late(record, refused, taken, gate.watermark());
        }
        for (Window window : assigner.windowsCreatedBy(record.timestamp())) {
            createIfAbsent(key, keyBytes, window);
        }
        assigner.offered(keyBytes, record, gate.watermark());
    }

    /**
     * Merges the window {@code old} into {@code state} (null: the merged window has no state yet) and
     * deletes it; under retracting refinement its last pane is retracted, for it gets no other. Each table
     * view of the results learns of the merge through its log ({@link MergedSessions}).
     */
    private WindowState<A> absorb(K key, byte[] keyBytes, @Nullable WindowState<A> state, Window old, byte[] oldKey) {
        WindowState<A> oldState = codec.decode(Objects.requireNonNull(store.get(oldKey), "a merged window has state"));
        if (panes.retracts() && oldState.panes() > 0) {
            PaneInfo.Timing timing =
                    gate.watermark() < old.maxTimestamp() ? PaneInfo.Timing.EARLY : PaneInfo.Timing.LATE;
            panes.retract(
                    new Windowed<>(key, old),
                    oldState.emitted(),
                    old.maxTimestamp(),
                    new PaneInfo(timing, oldState.panes(), true, true));
        }
        store.delete(oldKey);
        for (WriteBackCache log : mergeLogs) {
            log.put(MergedSessions.entry(keyBytes, old), MERGED);
        }
        openWindows.remove(old.end());
        return state == null
                ? oldState.rebased()
                : state.absorbing(oldState, aggregation.merge(key, state.aggregate(), oldState.aggregate()));
    }

    /** Adds the record to a window's state, then lets the trigger act on the change. */
    private void add(Record<K, V> record, Window window, byte[] storeKey, WindowState<A> state) {
        WindowState<A> added =
                state.added(aggregation.add(record.key(), record.value(), state.aggregate()), record.timestamp());
        if (gate.watermark() >= window.maxTimestamp()) {
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
        if (gate.closed(window.maxTimestamp()) || store.get(storeKey) != null) {
            return;
        }
        openWindows.add(window.end());
        changed(
                key,
                window,
                storeKey,
                WindowState.empty(assigner.initial(key, window, aggregation)).with(WindowState.PENDING));
    }

    /** A window changed: it fires at once if the trigger says so, and its state is stored. */
    private void changed(K key, Window window, byte[] storeKey, WindowState<A> state) {
        boolean early = gate.watermark() < window.maxTimestamp();
        if (triggers.firesOnChange(storeKey, early, state.sinceLastPane())) {
            state = emit(key, window, state, early ? PaneInfo.Timing.EARLY : PaneInfo.Timing.LATE);
        }
        store.put(storeKey, encode(storeKey, state));
    }

    @Override
    public void onWatermark(long newWatermark) {
        long previous = gate.watermark();
        if (!gate.advance(newWatermark)) {
            return;
        }
        fireOnTime(previous, newWatermark);
        close(newWatermark, true);
        assigner.purge(newWatermark);
    }

    @Override
    public void onProcessingTime(long now) {
        triggers.onProcessingTime(now, this::fireNoted);
    }

    /**
     * A tick's pane for a window noted when it changed: fired if the window still has unemitted
     * changes and is still early (or late). Windows the watermark has moved on since were handled by
     * their ON_TIME pane or their close.
     */
    private void fireNoted(byte[] storeKey, PaneInfo.Timing timing) {
        byte[] stored = store.get(storeKey);
        if (stored == null || !codec.pending(stored)) {
            return;
        }
        Window window = WindowKeys.window(storeKey);
        if ((gate.watermark() < window.maxTimestamp()) != (timing == PaneInfo.Timing.EARLY)) {
            return;
        }
        WindowState<A> state = emit(key(storeKey), window, codec.decode(stored), timing);
        store.put(storeKey, encode(storeKey, state));
    }

    /**
     * The ON_TIME moment of every window whose last instant is in {@code (previous, current]}: a window
     * that changed since its last pane emits it.
     */
    private void fireOnTime(long previous, long current) {
        if (!triggers.firesOnTime()) {
            return;
        }
        // end - 1 in (previous, current]  <=>  end in [previous + 2, current + 1]. Inclusive bounds: a window
        // may end at Long.MAX_VALUE (the last window of time), and a saturated exclusive bound would take
        // it for "no bound" and fire it early.
        if (previous >= Long.MAX_VALUE - 1) {
            return;
        }
        long fromEnd = previous + 2;
        long toEnd = TimeMath.plus(current, 1);
        if (!openWindows.anyIn(fromEnd, toEnd)) {
            return;
        }
        try (KeyValueIterator it = store.range(
                WindowKeys.endBound(fromEnd), toEnd == Long.MAX_VALUE ? null : WindowKeys.endBound(toEnd + 1))) {
            // The watermark only moves forward, so no window in this range has met its ON_TIME moment
            // before: a window with nothing new since its last pane is left as it is, unwritten.
            while (it.hasNext()) {
                ByteEntry entry = it.next();
                if (codec.pending(entry.value())) {
                    WindowState<A> state = emit(
                            key(entry.key()),
                            WindowKeys.window(entry.key()),
                            codec.decode(entry.value()),
                            PaneInfo.Timing.ON_TIME);
                    store.put(entry.key(), encode(entry.key(), state));
                }
            }
        }
    }

    /**
     * Closes every window with {@code end - 1 + L <= W}: emits any change of it not emitted yet (when
     * {@code fire} and the trigger fires at close), tells the assigner if it tracks windows, and purges
     * it from the window store — one range delete when nothing needs visiting, else a delete per
     * window visited.
     */
    private void close(long current, boolean fire) {
        // At the end of input everything goes, whatever the lateness.
        long lastClosingEnd =
                current == Long.MAX_VALUE ? Long.MAX_VALUE : TimeMath.plus(TimeMath.minus(current, allowedLateness), 1);
        if (!openWindows.anyThrough(lastClosingEnd)) {
            return;
        }
        // Ends up to the last close are gone already: starting past them spares the store a walk over
        // what earlier closes deleted. The first close (at init) starts at the beginning, for windows
        // a previous owner had closed.
        long closedThrough = openWindows.purgedThrough();
        byte[] from = closedThrough == Long.MIN_VALUE ? null : WindowKeys.endBound(TimeMath.plus(closedThrough, 1));
        // lastClosingEnd is an inclusive bound: only it may be Long.MAX_VALUE without meaning "beyond".
        byte[] to = lastClosingEnd == Long.MAX_VALUE ? null : WindowKeys.endBound(lastClosingEnd + 1);
        boolean fires = fire && triggers.firesAtClose();
        if (fires || assigner.tracksWindows()) {
            // Visiting anyway, so delete by key: session ends are spread over every millisecond, and a
            // range delete per watermark step would pile up range tombstones that slow every RocksDB read.
            try (KeyValueIterator it = store.range(from, to)) {
                while (it.hasNext()) {
                    ByteEntry entry = it.next();
                    Window window = WindowKeys.window(entry.key());
                    if (assigner.tracksWindows()) {
                        assigner.closed(WindowKeys.key(entry.key()), window);
                    }
                    if (fires && codec.pending(entry.value())) {
                        emit(key(entry.key()), window, codec.decode(entry.value()), triggers.closeTiming());
                    }
                    store.delete(entry.key());
                }
            }
        } else {
            store.deleteRange(from, to);
        }
        openWindows.purgeThrough(lastClosingEnd);
    }

    /**
     * Emits a pane of {@code window} (after a retraction of its previous pane under retracting
     * refinement) and returns the window's state after it.
     */
    private WindowState<A> emit(K key, Window window, WindowState<A> state, PaneInfo.Timing timing) {
        PaneInfo pane = new PaneInfo(timing, state.panes(), gate.closed(window.maxTimestamp()));
        long timestamp = isGlobal(window) && state.maxEventTime() != Long.MIN_VALUE
                ? state.maxEventTime()
                : window.maxTimestamp();
        panes.emit(new Windowed<>(key, window), state.emitted(), state.aggregate(), timestamp, pane);
        return state.afterPane(
                panes.discards() ? aggregation.initial() : state.aggregate(),
                panes.retracts() ? state.aggregate() : null,
                panes.discards());
    }

    private @Nullable WindowState<A> stored(byte[] storeKey) {
        byte[] stored = store.get(storeKey);
        return stored == null ? null : codec.decode(stored);
    }

    /** A global window's panes are stamped with its largest event time, so only its state keeps it. */
    private byte[] encode(byte[] storeKey, WindowState<A> state) {
        return codec.encode(state, WindowKeys.start(storeKey) == Long.MIN_VALUE);
    }

    /**
     * Whether {@code window} is a global window, the one window that starts at minus infinity (the last
     * window of every other kind ends at Long.MAX_VALUE too, clamped).
     */
    private static boolean isGlobal(Window window) {
        return window.start() == Long.MIN_VALUE;
    }

    private K key(byte[] storeKey) {
        return keyDeserializer.deserialize(storeName, WindowKeys.key(storeKey));
    }
}
