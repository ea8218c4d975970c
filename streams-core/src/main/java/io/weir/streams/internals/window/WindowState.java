package io.weir.streams.internals.window;

import org.jspecify.annotations.Nullable;

/**
 * What a window keeps between records: its value and the bookkeeping its trigger and refinement need.
 * Immutable; each transition returns the next state. Stored by {@link WindowStateCodec}.
 *
 * @param aggregate     the window's value: its full aggregate, or under discarding refinement only
 *                      what arrived since its last pane
 * @param emitted       the value of its last pane, kept only under retracting refinement (else null)
 * @param panes         how many panes it has emitted: the next pane's index
 * @param sinceLastPane records added since its last pane (for count triggers)
 * @param maxEventTime  the largest event time added (since the last pane under discarding refinement);
 *                      stored only for global windows, whose panes it stamps
 * @param flags         {@link #PENDING} and {@link #HAS_EMITTED}
 */
record WindowState<A>(
        @Nullable A aggregate, @Nullable A emitted, int panes, int sinceLastPane, long maxEventTime, int flags) {

    /** Changed since its last pane. */
    static final int PENDING = 2;
    /** {@code emitted} holds the last pane's value. */
    static final int HAS_EMITTED = 4;

    static <A> WindowState<A> empty(@Nullable A initial) {
        return new WindowState<>(initial, null, 0, 0, Long.MIN_VALUE, 0);
    }

    boolean has(int flag) {
        return (flags & flag) != 0;
    }

    WindowState<A> with(int flag) {
        return new WindowState<>(aggregate, emitted, panes, sinceLastPane, maxEventTime, flags | flag);
    }

    /** {@code newAggregate} after adding a record at {@code eventTime}. */
    WindowState<A> added(@Nullable A newAggregate, long eventTime) {
        return new WindowState<>(
                newAggregate, emitted, panes, sinceLastPane + 1, Math.max(maxEventTime, eventTime), flags | PENDING);
    }

    /** The start of a merged session's state: this state's aggregate and counts, as a new window with no pane. */
    WindowState<A> rebased() {
        return new WindowState<>(aggregate, null, 0, sinceLastPane, maxEventTime, PENDING);
    }

    /**
     * This session having taken in {@code other}'s records (sessions): the aggregate {@code merged},
     * counts summed, changed; its panes, last emitted value and flags stay.
     */
    WindowState<A> absorbing(WindowState<A> other, @Nullable A merged) {
        return new WindowState<>(
                merged,
                emitted,
                panes,
                sinceLastPane + other.sinceLastPane,
                Math.max(maxEventTime, other.maxEventTime),
                flags | PENDING);
    }

    /**
     * After a pane: {@code next} is the aggregate it keeps (the full value, or the initial value under
     * discarding refinement), {@code emittedValue} what it must remember having emitted (retracting only).
     * Under discarding refinement the largest event time starts again too, so that the next pane of a
     * global window is stamped from its own records only.
     */
    WindowState<A> afterPane(@Nullable A next, @Nullable A emittedValue, boolean discarding) {
        int newFlags = (flags & ~(PENDING | HAS_EMITTED)) | (emittedValue != null ? HAS_EMITTED : 0);
        return new WindowState<>(
                next, emittedValue, panes + 1, 0, discarding ? Long.MIN_VALUE : maxEventTime, newFlags);
    }
}
