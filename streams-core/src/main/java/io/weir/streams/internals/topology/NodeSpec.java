package io.weir.streams.internals.topology;

import io.weir.streams.internals.processor.Processor;

import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A processor node: its parents in the graph, a factory making one processor per task, and the
 * stores and output topics it uses.
 */
public record NodeSpec(
        String name,
        List<String> parents,
        Supplier<? extends Processor<?, ?>> processor,
        Set<String> stores,
        Set<String> outputTopics) {}
