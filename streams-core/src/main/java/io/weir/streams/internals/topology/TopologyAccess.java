package io.weir.streams.internals.topology;

import io.weir.streams.Topology;
import org.jspecify.annotations.Nullable;

import java.util.function.Function;

/**
 * How Weir's runtime and the TestDriver reach the {@link TopologySpec} inside a public
 * {@link Topology}, which does not show it to users. {@code Topology} hands over its accessor when
 * its class initializes, which happens before any instance exists to be asked about.
 */
public final class TopologyAccess {

    private static volatile @Nullable Function<Topology, TopologySpec> accessor;

    private TopologyAccess() {}

    /** Called once, by {@code Topology}'s static initializer. */
    public static void register(Function<Topology, TopologySpec> topologyAccessor) {
        if (accessor != null) {
            throw new IllegalStateException("The topology accessor is already registered");
        }
        accessor = topologyAccessor;
    }

    /** The graph of {@code topology}. */
    public static TopologySpec spec(Topology topology) {
        Function<Topology, TopologySpec> registered = accessor;
        if (registered == null) {
            throw new IllegalStateException("Topology has not registered its accessor");
        }
        return registered.apply(topology);
    }
}
