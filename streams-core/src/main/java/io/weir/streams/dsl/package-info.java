/**
 * The stream DSL: {@link io.weir.streams.dsl.EventStream} and its operators, windowed aggregations
 * ({@link io.weir.streams.dsl.WindowedStream}) with their windows, triggers and refinements, keyed
 * processors, and the configuration objects ({@code Consumed}, {@code Produced}, {@code Grouped},
 * {@code Materialized}).
 *
 * <p>The event-time rules are stated in the Javadoc of the types that decide them:
 * {@link io.weir.streams.dsl.Windows} (lateness, purging), {@link io.weir.streams.dsl.Trigger} (when
 * panes fire), {@link io.weir.streams.dsl.Refinement} (what they hold),
 * {@link io.weir.streams.dsl.PaneInfo} (their headers), {@link io.weir.streams.dsl.SessionWindows}
 * (merging) and {@link io.weir.streams.dsl.LateRecord} (the side output). Configuration objects are
 * immutable: static factories and {@code withXxx(...)} copies. Public API: stable within a major
 * version.
 */
@NullMarked
package io.weir.streams.dsl;

import org.jspecify.annotations.NullMarked;
