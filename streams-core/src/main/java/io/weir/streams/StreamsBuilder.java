package io.weir.streams;

import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.internals.Require;
import io.weir.streams.internals.dsl.EventStreamImpl;
import io.weir.streams.internals.dsl.GraphBuilder;

import java.util.Objects;

/**
 * Builds a {@link Topology} with the DSL: start from {@link #stream(String, Consumed)}, chain
 * operators, then {@link #build()}. Every mistake that can be found without data (bad durations,
 * unknown serdes, duplicate names) fails here, with a message naming the operator or parameter.
 * Not thread-safe; use one builder per topology.
 */
public final class StreamsBuilder {

    private final GraphBuilder graph = new GraphBuilder();

    /**
     * The records of {@code topic}, read as {@code consumed} says. A topic may be read more than once,
     * with other serdes, timestamps or error handler: each read is a source node of its own ({@code
     * source:<topic>}, then {@code source:<topic>-2}, ...) in the same tasks, which read each record once
     * and hand it to every read. All reads of a topic must give the same watermark strategy, since its
     * partitions have one watermark; a record one read cannot read is handled by that read's error
     * handler only.
     */
    public <K, V> EventStream<K, V> stream(String topic, Consumed<K, V> consumed) {
        Require.name("topic", topic);
        Objects.requireNonNull(consumed, "consumed");
        String node = graph.addSource(topic, consumed);
        return EventStreamImpl.source(graph, node, consumed.keySerde(), consumed.valueSerde());
    }

    /**
     * How the topology handles an exception thrown by user code while processing a record (see {@link
     * ProcessingError}): fail (the default), skip and count, or dead-letter. One handler for the whole
     * topology; it may decide per operator with {@link ProcessingError#operator()}.
     *
     * @return this builder
     */
    public StreamsBuilder setProcessingErrorHandler(ProcessingErrorHandler handler) {
        graph.processingErrorHandler(Objects.requireNonNull(handler, "handler"));
        return this;
    }

    /** The topology built so far. */
    public Topology build() {
        return new Topology(graph.build());
    }
}
