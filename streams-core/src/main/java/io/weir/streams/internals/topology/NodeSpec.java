package io.weir.streams.internals.topology;

import io.weir.streams.internals.processor.Processor;

import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A processor node: its parents in the graph, a factory making one processor per task, and the
 * stores and output topics it uses.
 *
 * @param sink whether the node is a sink: it writes what reaches it to its output topics (a user topic, a
 *             topic chosen per record, or a repartition topic) and forwards nothing. Other nodes' output
 *             topics are side outputs (late records)
 */
public record NodeSpec(
        String name,
        List<String> parents,
        Supplier<? extends Processor<?, ?>> processor,
        Set<String> stores,
        Set<String> outputTopics,
        boolean sink) {

    /** A node that is not a sink. */
    public NodeSpec(
            String name,
            List<String> parents,
            Supplier<? extends Processor<?, ?>> processor,
            Set<String> stores,
            Set<String> outputTopics) {
        this(name, parents, processor, stores, outputTopics, false);
    }
}
