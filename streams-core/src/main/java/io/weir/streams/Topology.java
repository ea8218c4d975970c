package io.weir.streams;

import io.weir.streams.internals.Require;
import io.weir.streams.internals.topology.TopologyAccess;
import io.weir.streams.internals.topology.TopologySpec;

/**
 * A built processing graph, run by {@code WeirStreams} on Kafka or by {@code TestDriver} in tests.
 * Immutable. {@link #describe()} shows what it runs: sub-topologies, sources with their watermark
 * strategies, operators, sinks, stores with their changelogs, internal topics, and which names were
 * generated.
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
     * What this topology runs, with internal topics named {@code <application.id>-<name>}
     * ({@link TopologyDescription#APPLICATION_ID_PLACEHOLDER}). A source given by a pattern is shown as its
     * pattern: which topics it reads is decided at start.
     *
     * @return the description; its {@code toString()} is a readable text, {@code toDot()} and {@code toSvg()}
     *     draw it
     */
    public TopologyDescription describe() {
        return TopologyDescriber.describe(spec, TopologyDescription.APPLICATION_ID_PLACEHOLDER);
    }

    /**
     * What this topology runs as application {@code applicationId}: as {@link #describe()}, with the internal
     * topics (repartition topics, changelogs) named as they are in Kafka.
     *
     * @param applicationId the application's {@code application.id}
     * @return the description
     */
    public TopologyDescription describe(String applicationId) {
        return TopologyDescriber.describe(spec, Require.name("applicationId", applicationId));
    }

    /**
     * The text of {@link #describe()}.
     *
     * @return the description as text
     */
    @Override
    public String toString() {
        return describe().toString();
    }
}
