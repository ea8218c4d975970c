package io.weir.benchmarks;

import io.weir.streams.dsl.Refinement;
import io.weir.streams.dsl.Trigger;
import io.weir.streams.dsl.WindowedStream;
import org.jspecify.annotations.Nullable;

import java.time.Duration;

/**
 * What a Weir variant's windowed count emits: its trigger's early firings, if any, and the refinement
 * of a window's successive panes. The one thing that differs between Weir variants of the same
 * topology, applied to the windowed stream before the count.
 *
 * @param earlyFirings EARLY panes every this much processing time, for windows changed since their
 *                     last pane; {@code null} for none (Weir's default trigger: an ON_TIME pane, then
 *                     a LATE pane per late record)
 * @param refinement   what successive panes of a window hold
 */
public record WeirPanes(@Nullable Duration earlyFirings, Refinement refinement) {

    /** Weir's defaults: no early firings, accumulating. */
    public static final WeirPanes DEFAULT = new WeirPanes(null, Refinement.ACCUMULATING);

    /** The interval of the early-firing variants: Weir's nearest to Kafka Streams' update per commit. */
    static final Duration EARLY_INTERVAL = Duration.ofSeconds(1);

    /** Early panes every {@link #EARLY_INTERVAL}, refined as {@code refinement} says. */
    static WeirPanes early(Refinement refinement) {
        return new WeirPanes(EARLY_INTERVAL, refinement);
    }

    /** Only the default trigger's panes, refined as {@code refinement} says. */
    static WeirPanes onTime(Refinement refinement) {
        return new WeirPanes(null, refinement);
    }

    public <K, V> WindowedStream<K, V> applyTo(WindowedStream<K, V> windowed) {
        WindowedStream<K, V> refined = windowed.withRefinement(refinement);
        return earlyFirings == null
                ? refined
                : refined.withTrigger(Trigger.onTime().withEarlyFirings(earlyFirings));
    }

    boolean firesEarly() {
        return earlyFirings != null;
    }

    /** Whether each pane holds only what came since the window's previous one, so panes add up to the count. */
    boolean discarding() {
        return refinement == Refinement.DISCARDING;
    }
}
