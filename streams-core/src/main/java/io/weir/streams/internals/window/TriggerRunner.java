package io.weir.streams.internals.window;

import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Trigger;
import io.weir.streams.internals.TimeMath;

import java.nio.ByteBuffer;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Runs a {@link Trigger} over the windows of one operator: says whether a change fires a pane at
 * once, remembers the windows that wait for the next early or late tick of processing time, and
 * hands them over when the tick comes. The rules are {@link Trigger}'s; the windows' own trigger
 * state (changed since the last pane, records since it) lives in their {@link WindowState}, so it is
 * changelogged with them, while the tick sets are rebuilt from the store when the task starts
 * ({@link #restored}).
 *
 * <p>Ticks are aligned to multiples of their interval, as a dashboard expects. Single-threaded.
 */
final class TriggerRunner {

    /** Fires the pane of one window noted for a tick (by its store key), with {@code timing}. */
    @FunctionalInterface
    interface Firing {
        void fire(byte[] storeKey, PaneInfo.Timing timing);
    }

    private final boolean atCloseOnly;
    private final long earlyInterval;
    private final long earlyCount;
    private final long lateInterval;
    /** Windows changed since their last pane, waiting for the next early or late tick (store keys). */
    private final Set<ByteBuffer> earlyChanged = new LinkedHashSet<>();

    private final Set<ByteBuffer> lateChanged = new LinkedHashSet<>();
    private long nextEarlyTick;
    private long nextLateTick;
    /**
     * Whether closing windows must be visited for changes not emitted yet: under an at-close or
     * late-interval trigger, or after a restart found such changes left by another trigger.
     */
    private boolean firesAtClose;

    /** {@code processingTime}: the clock when the task starts; the first ticks follow it. */
    TriggerRunner(Trigger trigger, long processingTime) {
        this.atCloseOnly = trigger.firesAtWindowCloseOnly();
        this.earlyInterval = trigger.earlyFiringInterval().map(TimeMath::millis).orElse(0L);
        this.earlyCount = trigger.earlyFiringCount().orElse(0);
        this.lateInterval = trigger.lateFiringInterval().map(TimeMath::millis).orElse(0L);
        this.nextEarlyTick = nextTick(processingTime, earlyInterval);
        this.nextLateTick = nextTick(processingTime, lateInterval);
        this.firesAtClose = atCloseOnly || lateInterval > 0;
    }

    /**
     * A window changed, early (before the watermark reached its end) or late, and has taken
     * {@code sinceLastPane} records since its last pane: whether it fires a pane now. If it does not,
     * it waits for the next tick when the trigger fires on an interval.
     */
    boolean firesOnChange(byte[] storeKey, boolean early, int sinceLastPane) {
        if (atCloseOnly) {
            return false;
        }
        if (early ? earlyCount > 0 && sinceLastPane >= earlyCount : lateInterval == 0) {
            return true;
        }
        awaitTick(storeKey, early);
        return false;
    }

    /**
     * A window restored with changes no pane holds yet. A late change the previous trigger had not
     * emitted (the application changed triggers across the restart) goes out when its window closes,
     * at the latest.
     */
    void restored(byte[] storeKey, boolean early) {
        awaitTick(storeKey, early);
        firesAtClose |= !early;
    }

    private void awaitTick(byte[] storeKey, boolean early) {
        if (early ? earlyInterval > 0 : lateInterval > 0) {
            (early ? earlyChanged : lateChanged).add(ByteBuffer.wrap(storeKey));
        }
    }

    /** Whether a window fires its ON_TIME pane when the watermark reaches its end (all but at-close triggers). */
    boolean firesOnTime() {
        return !atCloseOnly;
    }

    /** Whether a window fires changes it has not emitted yet when it closes. */
    boolean firesAtClose() {
        return firesAtClose;
    }

    /** The timing of a pane fired at a window's close: ON_TIME for an at-close trigger, its one pane; else LATE. */
    PaneInfo.Timing closeTiming() {
        return atCloseOnly ? PaneInfo.Timing.ON_TIME : PaneInfo.Timing.LATE;
    }

    /**
     * Processing time reached {@code now}: at each tick due, every window noted for it goes to
     * {@code firing} (which checks it still has unemitted changes and is still early, or late), and
     * the notes are cleared.
     */
    void onProcessingTime(long now, Firing firing) {
        if (earlyInterval > 0 && now >= nextEarlyTick) {
            nextEarlyTick = nextTick(now, earlyInterval);
            fireAll(earlyChanged, PaneInfo.Timing.EARLY, firing);
        }
        if (lateInterval > 0 && now >= nextLateTick) {
            nextLateTick = nextTick(now, lateInterval);
            fireAll(lateChanged, PaneInfo.Timing.LATE, firing);
        }
    }

    // Each buffer wraps a whole store key (ByteBuffer.wrap in awaitTick), so its array is the key.
    @SuppressWarnings("ByteBufferBackingArray")
    private static void fireAll(Set<ByteBuffer> noted, PaneInfo.Timing timing, Firing firing) {
        for (ByteBuffer storeKey : noted) {
            firing.fire(storeKey.array(), timing);
        }
        noted.clear();
    }

    /** The first multiple of {@code interval} after {@code now}; never for no interval. */
    private static long nextTick(long now, long interval) {
        return interval == 0
                ? Long.MAX_VALUE
                : TimeMath.plus(TimeMath.minus(now, Math.floorMod(now, interval)), interval);
    }
}
