package io.weir.streams.dsl;

import io.weir.streams.internals.Require;

/**
 * The name of an operator, in place of the generated {@code <kind>-<n>}: it appears in {@code
 * Topology.describe()}, in metrics, in logs and in {@code ProcessingError.operator()}, and the state
 * an operator keeps is named after it (a keyed processor's timer store is {@code <name>-timers}, with
 * the changelog {@code <application.id>-<name>-timers-changelog}). Generated names count operators in
 * the order they were added, so adding one upstream renames every later one; a named operator keeps its
 * name, and so its state, through such changes (docs/guides/operating.md says which changes are safe).
 * Immutable.
 */
public final class Named {

    private final String name;

    private Named(String name) {
        this.name = name;
    }

    /**
     * An operator named {@code name}: unique in its topology, letters, digits, '.', '_' and '-'.
     *
     * @param name the operator's name
     * @return the name, to pass to an operator
     */
    public static Named as(String name) {
        return new Named(Require.name("name", name));
    }

    /**
     * The operator's name.
     *
     * @return the name, as given to {@link #as}
     */
    public String name() {
        return name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Named n && n.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return "Named(" + name + ")";
    }
}
