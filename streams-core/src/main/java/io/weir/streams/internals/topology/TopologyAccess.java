package io.weir.streams.internals.topology;

import org.jspecify.annotations.Nullable;

import java.util.Objects;
import java.util.function.Function;

/**
 * How Weir's runtime and the TestDriver reach the {@link TopologySpec} inside a public {@code Topology},
 * which does not show it to users. {@code Topology} hands over its accessor when its class initializes,
 * which happens before any instance exists to be asked about.
 *
 * <p>The topology is passed as an {@code Object} so that the internals never name the public class that
 * names them: the dependency runs one way, from {@code io.weir.streams} to its internals. The accessor
 * is {@code Topology}'s own and fails on anything that is not a {@code Topology}.
 */
public final class TopologyAccess {

    private static volatile @Nullable Function<Object, TopologySpec> accessor;

    private TopologyAccess() {}

    /** Called once, by {@code Topology}'s static initializer. */
    public static void register(Function<Object, TopologySpec> topologyAccessor) {
        if (accessor != null) {
            throw new IllegalStateException("The topology accessor is already registered");
        }
        accessor = topologyAccessor;
    }

    /** The graph of {@code topology}, a {@code Topology} that {@code StreamsBuilder.build()} made. */
    public static TopologySpec spec(Object topology) {
        Objects.requireNonNull(topology, "topology");
        Function<Object, TopologySpec> registered = accessor;
        if (registered == null) {
            throw new IllegalStateException("Topology has not registered its accessor");
        }
        return registered.apply(topology);
    }
}
