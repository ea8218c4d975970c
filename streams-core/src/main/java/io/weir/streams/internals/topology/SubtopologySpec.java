package io.weir.streams.internals.topology;

import io.weir.streams.errors.ProcessingErrorHandler;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A connected part of the graph: its sources, its nodes in topological order and its stores. A task
 * is one sub-topology on one partition number, reading that partition of every source topic.
 *
 * @param processingErrors the topology's handler for exceptions thrown by user code
 */
public record SubtopologySpec(
        int id,
        List<SourceSpec> sources,
        List<NodeSpec> nodes,
        Set<String> stores,
        ProcessingErrorHandler processingErrors) {

    /** The topics this sub-topology reads, as named in Kafka for {@code applicationId}. */
    public Set<String> sourceTopics(String applicationId) {
        return sources.stream().map(s -> s.topic(applicationId)).collect(Collectors.toCollection(TreeSet::new));
    }
}
