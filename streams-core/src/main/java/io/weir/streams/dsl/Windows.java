package io.weir.streams.dsl;

import java.time.Duration;

/**
 * How a windowed aggregation groups records by event time, and how long after a window's end it
 * still accepts late records.
 *
 * <p>Allowed lateness {@code L}: a record for a window whose end the watermark has passed
 * ({@code W >= end - 1}) is late. While {@code W < end - 1 + L} it is added and the window emits a
 * late pane; once {@code W >= end - 1 + L} the window's state is purged and records for it are
 * dropped — counted, and written to the late-data side output when one is configured.
 */
public sealed interface Windows permits TumblingWindows, HoppingWindows, SlidingWindows, SessionWindows, GlobalWindows {

    /**
     * How long after its end a window still accepts (and emits for) late records; zero by default.
     *
     * @return the allowed lateness; zero or more
     */
    Duration allowedLateness();
}
