package io.weir.streams.internals.topology;

import io.weir.streams.dsl.Consumed;
import io.weir.streams.state.StoreType;

/**
 * A global table a topology declares ({@code StreamsBuilder.globalTable}): every instance holds all of
 * {@code topic} in the store {@code storeName}, outside every task.
 */
public record GlobalTableSpec(String storeName, String topic, Consumed<?, ?> consumed, StoreType storeType) {}
