/**
 * Event time: where a record's time comes from ({@link io.weir.streams.time.TimestampExtractor}) and
 * how each input partition's watermark follows it ({@link io.weir.streams.time.WatermarkStrategy}:
 * bounded out-of-orderness, idleness, maximum future skew), and the intervals of event time results are
 * computed over ({@link io.weir.streams.time.Window}, and a key with its window,
 * {@link io.weir.streams.time.Windowed}). Public API: stable within a major version.
 */
@NullMarked
package io.weir.streams.time;

import org.jspecify.annotations.NullMarked;
