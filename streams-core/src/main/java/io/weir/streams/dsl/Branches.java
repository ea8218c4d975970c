package io.weir.streams.dsl;

import java.util.Map;
import java.util.function.BiPredicate;

/** The branches of {@link EventStream#split()}; a record goes to the first branch that accepts it. */
public interface Branches<K, V> {

    /** Adds a branch named {@code name} for the records {@code predicate} accepts. */
    Branches<K, V> branch(String name, BiPredicate<? super K, ? super V> predicate);

    /** Ends the split: records no branch accepted go to a branch named {@code name}. */
    Map<String, EventStream<K, V>> defaultBranch(String name);

    /** Ends the split: records no branch accepted are dropped. */
    Map<String, EventStream<K, V>> noDefaultBranch();
}
