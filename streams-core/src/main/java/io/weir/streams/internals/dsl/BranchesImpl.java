package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.Branches;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.internals.Require;
import io.weir.streams.internals.processor.StatelessProcessor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiPredicate;

/** Collects branch predicates, then adds one node per branch that keeps what earlier branches refused. */
final class BranchesImpl<K, V> implements Branches<K, V> {

    private final EventStreamImpl<K, V> parent;
    private final Map<String, BiPredicate<? super K, ? super V>> branches = new LinkedHashMap<>();

    BranchesImpl(EventStreamImpl<K, V> parent) {
        this.parent = parent;
    }

    @Override
    public Branches<K, V> branch(String name, BiPredicate<? super K, ? super V> predicate) {
        Require.name("branch name", name);
        if (branches.putIfAbsent(name, Objects.requireNonNull(predicate, "predicate")) != null) {
            throw new IllegalArgumentException("split(): the branch name '" + name + "' is used twice");
        }
        return this;
    }

    @Override
    public Map<String, EventStream<K, V>> defaultBranch(String name) {
        Require.name("branch name", name);
        if (branches.containsKey(name)) {
            throw new IllegalArgumentException("split(): the branch name '" + name + "' is used twice");
        }
        branches.put(name, (k, v) -> true);
        return noDefaultBranch();
    }

    @Override
    public Map<String, EventStream<K, V>> noDefaultBranch() {
        List<BiPredicate<? super K, ? super V>> predicates = List.copyOf(branches.values());
        // One node tests the predicates once per record and tags it with the winning branch.
        String splitter = parent.graph.addNode(
                parent.graph.newName("split"),
                parent.nodes,
                () -> new StatelessProcessor<K, V, K, Tagged<V>>((r, out) -> {
                    for (int i = 0; i < predicates.size(); i++) {
                        if (predicates.get(i).test(r.key(), r.value())) {
                            out.accept(r.withValue(new Tagged<>(i, r.value())));
                            return;
                        }
                    }
                }),
                Set.of(),
                Set.of());
        Map<String, EventStream<K, V>> result = new LinkedHashMap<>();
        int index = 0;
        for (String name : branches.keySet()) {
            int mine = index++;
            String node = parent.graph.addNode(
                    parent.graph.newName("branch-" + name),
                    List.of(splitter),
                    () -> new StatelessProcessor<K, Tagged<V>, K, V>((r, out) -> {
                        if (r.value().branch() == mine) {
                            out.accept(r.withValue(r.value().value()));
                        }
                    }),
                    Set.of(),
                    Set.of());
            result.put(
                    name,
                    new EventStreamImpl<>(
                            parent.graph, List.of(node), parent.keySerde, parent.valueSerde, parent.keyChanged));
        }
        return result;
    }

    /** A value marked with the index of the branch that accepted it. */
    private record Tagged<V>(int branch, V value) {}
}
