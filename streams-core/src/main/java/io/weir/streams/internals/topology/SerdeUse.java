package io.weir.streams.internals.topology;

import org.apache.kafka.common.serialization.Serde;

/**
 * A serde the topology uses, and whether for keys: what Weir configures when the application gives
 * {@code serde.}-prefixed settings ({@code StreamsConfig.SERDE_PREFIX}).
 */
public record SerdeUse(Serde<?> serde, boolean isKey) {}
