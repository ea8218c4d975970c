package io.weir.streams;

import io.weir.streams.internals.topology.NodeSpec;
import io.weir.streams.internals.topology.SourceSpec;
import io.weir.streams.internals.topology.SubtopologySpec;
import io.weir.streams.internals.topology.TopologyAccess;
import io.weir.streams.internals.topology.TopologySpec;

/**
 * A built processing graph, run by {@code WeirStreams} on Kafka or by {@code TestDriver} in tests.
 * Immutable. {@link #describe()} prints its sub-topologies, nodes and stores.
 */
public final class Topology {

    static {
        TopologyAccess.register(topology -> ((Topology) topology).spec);
    }

    private final TopologySpec spec;

    Topology(TopologySpec spec) {
        this.spec = spec;
    }

    /**
     * A readable outline: sub-topologies, their sources, nodes (with parents) and stores.
     *
     * @return the outline, one line per sub-topology, source and node
     */
    public String describe() {
        StringBuilder out = new StringBuilder();
        for (SubtopologySpec sub : spec.subtopologies()) {
            out.append("Sub-topology ").append(sub.id()).append('\n');
            for (SourceSpec source : sub.sources()) {
                out.append("  source ")
                        .append(source.pattern() != null ? "/" + source.topic() + "/" : source.topic())
                        .append('\n');
            }
            for (NodeSpec node : sub.nodes()) {
                out.append("  ").append(node.name()).append(" <- ").append(String.join(", ", node.parents()));
                if (!node.stores().isEmpty()) {
                    out.append("  stores ").append(node.stores());
                }
                if (!node.outputTopics().isEmpty()) {
                    out.append("  writes ").append(node.outputTopics());
                }
                out.append('\n');
            }
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return describe();
    }
}
