/**
 * Serdes Weir provides besides Kafka's: {@link io.weir.streams.serde.Serdes} (the common ones),
 * {@link io.weir.streams.serde.JsonSerde} (Jackson, for records and classes) and
 * {@link io.weir.streams.serde.WindowedSerdes} (for windowed keys). Public API: stable within a major
 * version.
 */
@NullMarked
package io.weir.streams.serde;

import org.jspecify.annotations.NullMarked;
