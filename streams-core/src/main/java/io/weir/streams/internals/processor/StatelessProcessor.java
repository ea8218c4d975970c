package io.weir.streams.internals.processor;

import java.util.function.Consumer;

/**
 * Every stateless DSL operator (filter, map, flatMap, peek, selectKey, ...) is this processor with
 * its own {@link Step}: a function from one input record to zero or more output records.
 */
public final class StatelessProcessor<K, V, K2, V2> implements Processor<K, V> {

    /** What one operator does with one record: emit zero or more records to {@code out}. */
    @FunctionalInterface
    public interface Step<K, V, K2, V2> {
        void apply(Record<K, V> record, Consumer<Record<K2, V2>> out);
    }

    private final Step<K, V, K2, V2> step;
    private Consumer<Record<K2, V2>> out;

    public StatelessProcessor(Step<K, V, K2, V2> step) {
        this.step = step;
    }

    @Override
    public void init(ProcessorContext context) {
        this.out = context::forward;
    }

    @Override
    public void process(Record<K, V> record) {
        step.apply(record, out);
    }
}
