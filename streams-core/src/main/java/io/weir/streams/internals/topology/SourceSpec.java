package io.weir.streams.internals.topology;

import io.weir.streams.dsl.Consumed;

/** A source topic and how it is read; its records enter the graph at the node of the same name. */
public record SourceSpec(String nodeName, String topic, Consumed<?, ?> consumed) {
}
