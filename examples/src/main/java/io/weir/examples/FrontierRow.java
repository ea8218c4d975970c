package io.weir.examples;

import org.jspecify.annotations.Nullable;

/**
 * What one (watermark delay, allowed lateness) setting does to a recorded stream, counted by
 * {@link FrontierSweep} from a real windowed count. A "window" here is one key's window: the same
 * time range under two keys is two windows.
 *
 * @param delayMs        the watermark's bounded out-of-orderness delay, in milliseconds
 * @param latenessMs     the windows' allowed lateness, in milliseconds
 * @param dropped        records refused because they came after their window's allowed lateness had
 *                       passed (metric {@code late-records-dropped}); they are in no result
 * @param lateUpdates    records that came after their window's on-time result but within the allowed
 *                       lateness (metric {@code late-records-added}); each emitted a LATE pane that
 *                       corrected its window
 * @param inFirstPct     the share of all input records, in percent, that are counted in the first
 *                       result of their window (normally its on-time pane; for a window that never
 *                       fired before the end of input, its end-of-input result): what a consumer that
 *                       reads one result per window sees
 * @param exactWindows   windows whose final result equals the number of input records in them
 * @param windows        windows that received at least one input record (a window whose records were
 *                       all dropped has no result and is not exact)
 * @param meanWaitMs     the mean, over on-time panes fired before the end of input, of the processing
 *                       time of the record whose arrival fired the pane minus the window's end: how long
 *                       after a window closes its result appears; null when no pane fired before the end
 * @param maxOpenWindows the most windows holding state at once (gauge {@code open-windows}, read after
 *                       each record): the memory the setting costs
 */
record FrontierRow(
        long delayMs,
        long latenessMs,
        long dropped,
        long lateUpdates,
        double inFirstPct,
        long exactWindows,
        long windows,
        @Nullable Double meanWaitMs,
        long maxOpenWindows) {}
