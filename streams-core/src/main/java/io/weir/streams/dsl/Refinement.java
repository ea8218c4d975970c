package io.weir.streams.dsl;

/**
 * What the successive panes of one window hold, when a trigger fires a window more than once. Take
 * a window that gets 3 records, emits an EARLY pane, then gets 2 more and emits its ON_TIME pane:
 * <ul>
 *   <li>{@link #ACCUMULATING}: 3, then 5.</li>
 *   <li>{@link #DISCARDING}: 3, then 2.</li>
 *   <li>{@link #ACCUMULATING_AND_RETRACTING}: 3, then a retraction of 3, then 5.</li>
 * </ul>
 */
public enum Refinement {
    /**
     * Each pane holds the window's full value: a downstream store that keeps the latest value per
     * (key, window) is right. A downstream sum over windows double-counts. The default.
     */
    ACCUMULATING,
    /**
     * Each pane holds only what arrived since the window's previous pane, aggregated from the
     * initial value: summing the panes of a window gives its full value. Session windows merge, so
     * there the sum holds per key: a merged session's panes hold only what its parts had not emitted,
     * and all panes of a key's sessions add up to the full values of its sessions. The window's state
     * holds only the delta.
     */
    DISCARDING,
    /**
     * Each pane holds the full value, and is preceded by a retraction of the window's previous pane
     * (if it had one): a record with the same key, the previous pane's value and the header
     * {@value PaneInfo#RETRACTION_HEADER}{@code =true}. A downstream sum that subtracts retractions
     * and adds panes ends with exactly the final values. When session windows merge, each merged
     * session's last pane is retracted. The window's state also keeps its last emitted value.
     */
    ACCUMULATING_AND_RETRACTING
}
