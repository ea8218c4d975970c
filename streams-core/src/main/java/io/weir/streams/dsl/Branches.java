package io.weir.streams.dsl;

import java.util.Map;
import java.util.function.BiPredicate;

/** The branches of {@link EventStream#split()}; a record goes to the first branch that accepts it. */
public interface Branches<K, V> {

    /**
     * Adds a branch named {@code name} for the records {@code predicate} accepts.
     *
     * @param name the branch's key in the resulting map; unique among the branches, not blank
     * @param predicate tested on each record no earlier branch took; true sends it here
     * @return this, to add more branches
     */
    Branches<K, V> branch(String name, BiPredicate<? super K, ? super V> predicate);

    /**
     * Ends the split: records no branch accepted go to a branch named {@code name}.
     *
     * @param name the default branch's key in the resulting map; unique among the branches, not blank
     * @return the branches' streams by name, in the order they were added, the default last
     */
    Map<String, EventStream<K, V>> defaultBranch(String name);

    /**
     * Ends the split: records no branch accepted are dropped.
     *
     * @return the branches' streams by name, in the order they were added
     */
    Map<String, EventStream<K, V>> noDefaultBranch();
}
