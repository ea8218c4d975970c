/**
 * Weir's entry points: {@link io.weir.streams.StreamsBuilder} builds a {@link io.weir.streams.Topology},
 * {@link io.weir.streams.WeirStreams} runs it on Kafka with a {@link io.weir.streams.StreamsConfig};
 * error handlers, metrics names and restore listeners live here too.
 *
 * <p><b>Stability.</b> The public API is this package and {@code io.weir.streams.dsl}, {@code .time},
 * {@code .state} and {@code .serde} (plus {@code io.weir.streams.test} and {@code .test.kafka} in the
 * test kit). Everything under {@code io.weir.streams.internals} may change in any release; no public
 * signature names an internal type (a test holds the code to it).
 *
 * <p><b>Nullness.</b> Every package of the public API is {@link org.jspecify.annotations.NullMarked}:
 * parameters and return values are never null unless marked {@link org.jspecify.annotations.Nullable}.
 * A setting that may be absent is returned as an {@link java.util.Optional}. Null keeps the meaning
 * Kafka gives it only for data: a record's key or value (a null value is a tombstone), and a store's
 * answer for an absent key.
 */
@NullMarked
package io.weir.streams;

import org.jspecify.annotations.NullMarked;
