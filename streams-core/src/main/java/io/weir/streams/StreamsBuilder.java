package io.weir.streams;

import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.GlobalTable;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Table;
import io.weir.streams.errors.ProcessingError;
import io.weir.streams.errors.ProcessingErrorHandler;
import io.weir.streams.internals.Require;
import io.weir.streams.internals.dsl.EventStreamImpl;
import io.weir.streams.internals.dsl.GlobalTableImpl;
import io.weir.streams.internals.dsl.GraphBuilder;
import io.weir.streams.internals.dsl.TableImpl;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Builds a {@link Topology} with the DSL: start from {@link #stream(String, Consumed)}, chain
 * operators, then {@link #build()}. Every mistake that can be found without data (bad durations,
 * unknown serdes, duplicate names) fails here, with a message naming the operator or parameter.
 * Not thread-safe; use one builder per topology.
 */
public final class StreamsBuilder {

    private final GraphBuilder graph = new GraphBuilder();

    /**
     * The records of {@code topic}, read as {@code consumed} says. A topic may be read more than once,
     * with other serdes, timestamps or error handler: each read is a source node of its own ({@code
     * source:<topic>}, then {@code source:<topic>-2}, ...) in the same tasks, which read each record once
     * and hand it to every read. All reads of a topic must give the same watermark strategy, since its
     * partitions have one watermark; a record one read cannot read is handled by that read's error
     * handler only.
     *
     * @param <K> the key type
     * @param <V> the value type
     * @param topic the topic to read; it must exist when the application starts
     * @param consumed the serdes, event times, watermark strategy and error handler of this read
     * @return the stream of the topic's records
     */
    public <K, V> EventStream<K, V> stream(String topic, Consumed<K, V> consumed) {
        Require.name("topic", topic);
        Objects.requireNonNull(consumed, "consumed");
        String node = graph.addSource(topic, consumed);
        return EventStreamImpl.source(graph, node, consumed.keySerde(), consumed.valueSerde());
    }

    /**
     * The records of every topic whose name matches {@code pattern} in full, read as {@code consumed}
     * says, as one stream: one source node ({@code source:/<pattern>/}) in the same tasks, so the
     * matching topics must have the same number of partitions. The pattern is resolved when the
     * application starts (or the TestDriver is made): a topic created later that matches is read from
     * the next start; a pattern that matches nothing fails the start naming it. Topics the topology reads
     * by name and its own internal topics never match.
     *
     * @param <K> the key type
     * @param <V> the value type
     * @param pattern matched against whole topic names
     * @param consumed the serdes, event times, watermark strategy and error handler of the read
     * @return one stream of the records of every matching topic
     */
    public <K, V> EventStream<K, V> stream(Pattern pattern, Consumed<K, V> consumed) {
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(consumed, "consumed");
        String node = graph.addPatternSource(pattern, consumed);
        return EventStreamImpl.source(graph, node, consumed.keySerde(), consumed.valueSerde());
    }

    /**
     * The table whose changelog is {@code topic}: each record sets its key's value, a record with a null
     * value deletes it, the last by offset wins. The table is materialized in a store ({@code
     * materialized} names it; else {@code <topic>-table}) whose changelog is the topic itself: no
     * second topic is written, and a task restores the store by reading the topic up to the offset its
     * input committed, so the store holds exactly what processing had taken in. The topic should be
     * compacted, or keep its records forever: a store restored from a topic that deleted old records
     * lacks their keys.
     *
     * <p>A table's partitions never hold back the watermark of the streams read in the same task: a
     * topic that changes once a day does not stall the windows downstream. A task that reads only
     * tables takes its watermark from them. A record with a null key is counted and skipped; a tombstone
     * for a key the table does not hold is counted; an unreadable record goes to the source's error
     * handler, as for streams.
     *
     * @param <K> the key type
     * @param <V> the value type
     * @param topic the table's changelog topic, ideally compacted; it must exist when the application starts
     * @param consumed the serdes, event times, watermark strategy and error handler of the read
     * @param materialized the store's name, type and options (a time-to-live, or versions with {@code
     *     versioned})
     * @return the table, materialized in its store
     * @throws IllegalArgumentException if the topic is also read as a stream, or {@code consumed} sets a
     *     maximum future skew (a table takes every update, whatever its event time)
     */
    public <K, V> Table<K, V> table(String topic, Consumed<K, V> consumed, Materialized<K, V> materialized) {
        Require.name("topic", topic);
        Objects.requireNonNull(consumed, "consumed");
        Objects.requireNonNull(materialized, "materialized");
        return TableImpl.source(graph, graph.addTableSource(topic, consumed), materialized);
    }

    /**
     * {@link #table(String, Consumed, Materialized)} in a RocksDB store named {@code <topic>-table}.
     *
     * @param <K> the key type
     * @param <V> the value type
     * @param topic the table's changelog topic, ideally compacted; it must exist when the application starts
     * @param consumed the serdes, event times, watermark strategy and error handler of the read
     * @return the table, in a RocksDB store named {@code <topic>-table}
     */
    public <K, V> Table<K, V> table(String topic, Consumed<K, V> consumed) {
        return table(topic, consumed, Materialized.with(null, null));
    }

    /**
     * The table of all of {@code topic}, held whole by every instance: each record sets its key's value, a
     * tombstone deletes it, the last by offset wins. A thread of the instance's own reads every partition
     * of the topic: when the instance starts, it reads them to their end offsets before any task
     * processes a record (so a stream record sees at least what the topic held at the start), then keeps
     * reading as the topic changes. The table is read by tasks, never written, and holds no changelog of
     * its own: its store (RocksDB, or in memory with {@code materialized.inMemory()}, named by {@code
     * materialized} or {@code <topic>-global}) resumes from the offsets it stored with its data. Updates
     * reach tasks as they are read, outside the tasks' transactions: a task's result depends on how far
     * the global thread had read when the task processed its record (as in Kafka Streams).
     *
     * <p>An unreadable record goes to {@code consumed}'s error handler: continue skips it, fail fails the
     * instance; a global table cannot dead-letter (it has no producer), and that decision fails too. A
     * record with a null key is skipped.
     *
     * @param <K> the key type
     * @param <V> the value type
     * @param topic the table's topic, read whole by every instance; it must exist when the application starts
     * @param consumed the serdes and the error handler of the read
     * @param materialized the store's name and type only
     * @return the global table, to join streams with
     * @throws IllegalArgumentException if the topic is read otherwise too, or the store name is taken
     * @throws IllegalStateException if {@code materialized} sets what a global table does not have: serdes
     *     (the store holds the topic's bytes), a changelog setting, a time-to-live, emission or retention
     */
    public <K, V> GlobalTable<K, V> globalTable(
            String topic, Consumed<K, V> consumed, Materialized<K, V> materialized) {
        Require.name("topic", topic);
        Objects.requireNonNull(consumed, "consumed");
        Objects.requireNonNull(materialized, "materialized");
        return GlobalTableImpl.register(graph, topic, consumed, materialized);
    }

    /**
     * {@link #globalTable(String, Consumed, Materialized)} in a RocksDB store named {@code <topic>-global}.
     *
     * @param <K> the key type
     * @param <V> the value type
     * @param topic the table's topic, read whole by every instance; it must exist when the application starts
     * @param consumed the serdes and the error handler of the read
     * @return the global table, to join streams with
     */
    public <K, V> GlobalTable<K, V> globalTable(String topic, Consumed<K, V> consumed) {
        return globalTable(topic, consumed, Materialized.with(null, null));
    }

    /**
     * How the topology handles an exception thrown by user code while processing a record (see {@link
     * ProcessingError}): fail (the default), skip and count, or dead-letter. One handler for the whole
     * topology; it may decide per operator with {@link ProcessingError#operator()}.
     *
     * @param handler decides, per failed record, whether to fail, skip or dead-letter
     * @return this builder
     */
    public StreamsBuilder setProcessingErrorHandler(ProcessingErrorHandler handler) {
        graph.processingErrorHandler(Objects.requireNonNull(handler, "handler"));
        return this;
    }

    /**
     * The topology built so far.
     *
     * @return the topology, to run with {@link WeirStreams} or the TestDriver
     */
    public Topology build() {
        return new Topology(graph.build());
    }
}
