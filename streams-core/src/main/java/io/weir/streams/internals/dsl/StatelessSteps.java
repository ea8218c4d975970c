package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.KeyValue;
import io.weir.streams.internals.processor.StatelessProcessor.Step;

import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * What each stateless operator of a stream does with one record, as a {@link Step}. Each factory
 * refuses a null function, so both public overloads of an operator (with and without its name) check
 * it here, once; {@link EventStreamImpl} adds the step as a node.
 */
final class StatelessSteps {

    private StatelessSteps() {}

    /** {@code filter} when {@code keep}, {@code filterNot} otherwise. */
    static <K, V> Step<K, V, K, V> filter(BiPredicate<? super K, ? super V> predicate, boolean keep) {
        Objects.requireNonNull(predicate, "predicate");
        return (r, out) -> {
            if (predicate.test(r.key(), r.value()) == keep) {
                out.accept(r);
            }
        };
    }

    static <K, V, K2, V2> Step<K, V, K2, V2> map(BiFunction<? super K, ? super V, KeyValue<K2, V2>> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return (r, out) -> {
            KeyValue<K2, V2> kv = mapper.apply(r.key(), r.value());
            out.accept(r.with(kv.key(), kv.value()));
        };
    }

    static <K, V, V2> Step<K, V, K, V2> mapValues(Function<? super V, ? extends V2> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return (r, out) -> out.accept(r.withValue(mapper.apply(r.value())));
    }

    static <K, V, K2, V2> Step<K, V, K2, V2> flatMap(
            BiFunction<? super K, ? super V, ? extends Iterable<KeyValue<K2, V2>>> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return (r, out) -> {
            for (KeyValue<K2, V2> kv : mapper.apply(r.key(), r.value())) {
                out.accept(r.with(kv.key(), kv.value()));
            }
        };
    }

    static <K, V, V2> Step<K, V, K, V2> flatMapValues(Function<? super V, ? extends Iterable<? extends V2>> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return (r, out) -> {
            for (V2 v : mapper.apply(r.value())) {
                out.accept(r.withValue(v));
            }
        };
    }

    static <K, V> Step<K, V, K, V> peek(BiConsumer<? super K, ? super V> action) {
        Objects.requireNonNull(action, "action");
        return (r, out) -> {
            action.accept(r.key(), r.value());
            out.accept(r);
        };
    }

    static <K, V, K2> Step<K, V, K2, V> selectKey(BiFunction<? super K, ? super V, ? extends K2> keyMapper) {
        Objects.requireNonNull(keyMapper, "keyMapper");
        return (r, out) -> out.accept(r.withKey(keyMapper.apply(r.key(), r.value())));
    }

    /** {@code foreach}: the action, and nothing emitted. */
    static <K, V> Step<K, V, K, V> foreach(BiConsumer<? super K, ? super V> action) {
        Objects.requireNonNull(action, "action");
        return (r, out) -> action.accept(r.key(), r.value());
    }
}
