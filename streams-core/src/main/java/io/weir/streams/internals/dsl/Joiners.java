package io.weir.streams.internals.dsl;

import org.jspecify.annotations.Nullable;

import java.util.Objects;
import java.util.function.BiFunction;

/** How the DSL hands joiners to the join operators, which run every join kind with nullable arguments. */
final class Joiners {

    private Joiners() {}

    /**
     * An inner or left join's joiner as the operators call it: they never pass it a null its signature
     * does not allow (a stream's values may be null themselves), so the cast only widens what it accepts.
     */
    @SuppressWarnings("unchecked")
    static <V, VO, VR> BiFunction<? super @Nullable V, ? super @Nullable VO, ? extends VR> nullable(
            BiFunction<? super V, ? super VO, ? extends VR> joiner) {
        return (BiFunction<? super @Nullable V, ? super @Nullable VO, ? extends VR>)
                Objects.requireNonNull(joiner, "joiner");
    }
}
