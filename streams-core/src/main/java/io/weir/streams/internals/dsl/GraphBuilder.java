package io.weir.streams.internals.dsl;

import io.weir.streams.dsl.Consumed;
import io.weir.streams.errors.ProcessingErrorHandler;
import io.weir.streams.internals.processor.Processor;
import io.weir.streams.internals.topology.GlobalTableSpec;
import io.weir.streams.internals.topology.NodeSpec;
import io.weir.streams.internals.topology.SerdeUse;
import io.weir.streams.internals.topology.SourceNames;
import io.weir.streams.internals.topology.SourceSpec;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.TopologySpec;
import org.apache.kafka.common.serialization.Serde;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/** The mutable graph behind a {@code StreamsBuilder}: names nodes, checks names, and builds the spec. */
public final class GraphBuilder {

    private final List<SourceSpec> sources = new ArrayList<>();
    private final List<NodeSpec> nodes = new ArrayList<>();
    private final Map<String, StoreSpec> stores = new LinkedHashMap<>();
    private final Map<String, String> nodeNames = new LinkedHashMap<>();
    private final List<SerdeUse> serdes = new ArrayList<>();
    private final List<GlobalTableSpec> globalTables = new ArrayList<>();
    /** The names Weir numbered ({@link #newName}, a second read of a topic, a second sink of it). */
    private final Set<String> generatedNames = new HashSet<>();

    private ProcessingErrorHandler processingErrors = ProcessingErrorHandler.fail();
    private int counter;

    /**
     * Notes that the topology uses {@code serde} (for keys when {@code isKey}), so that it can be
     * configured; an instance is noted once, in the role it was first used in.
     */
    public void useSerde(Serde<?> serde, boolean isKey) {
        if (serdes.stream().noneMatch(u -> u.serde() == serde)) {
            serdes.add(new SerdeUse(serde, isKey));
        }
    }

    public void processingErrorHandler(ProcessingErrorHandler handler) {
        this.processingErrors = handler;
    }

    /** Registers a source topic; returns its node name. */
    public String addSource(String topic, Consumed<?, ?> consumed) {
        return addSource(topic, consumed, false, -1, false).nodeName();
    }

    /** Registers a topic read as a table ({@code StreamsBuilder.table}); returns its source. */
    public SourceSpec addTableSource(String topic, Consumed<?, ?> consumed) {
        return addSource(topic, consumed, false, -1, true);
    }

    /**
     * Registers the reading side of repartition topic {@code logicalTopic} with {@code partitions}
     * partitions (-1: its writers' task count); returns its node name.
     */
    public String addRepartitionSource(String logicalTopic, Consumed<?, ?> consumed, int partitions) {
        return addSource(logicalTopic, consumed, true, partitions, false).nodeName();
    }

    /**
     * Registers the reading side of repartition topic {@code logicalTopic} that carries a join's messages
     * about table rows: left out of the watermark (see {@link SourceSpec#table()}); returns its node name.
     */
    public String addTableMessageSource(String logicalTopic, Consumed<?, ?> consumed) {
        return addSource(logicalTopic, consumed, true, -1, true).nodeName();
    }

    private SourceSpec addSource(
            String topic, Consumed<?, ?> consumed, boolean repartition, int partitions, boolean table) {
        if (globalTables.stream().anyMatch(g -> g.topic().equals(topic))) {
            throw new IllegalArgumentException(
                    "Topic '" + topic + "' is read as a global table and again in the " + "tasks; read it once");
        }
        int n = 1;
        for (SourceSpec earlier : sources) {
            if (earlier.pattern() != null || !earlier.topic().equals(topic)) {
                continue;
            }
            if (table || earlier.table()) {
                throw new IllegalArgumentException("Topic '" + topic + "' is read as a table and again: a table's "
                        + "topic is its store's changelog, read once; use the table's toStream() for its changes");
            }
            if (repartition || earlier.repartition()) {
                throw new IllegalArgumentException("Repartition topic '" + topic + "' is read once");
            }
            if (!earlier.consumed().watermarkStrategy().equals(consumed.watermarkStrategy())) {
                throw new IllegalArgumentException("Topic '" + topic + "' is read twice with different watermark "
                        + "strategies (" + earlier.consumed().watermarkStrategy() + " and "
                        + consumed.watermarkStrategy() + "): its partitions have one watermark, so give both reads "
                        + "the same strategy");
            }
            n++;
        }
        String name = SourceNames.of(topic, n);
        if (nodeNames.containsKey(name)) {
            throw new IllegalArgumentException("The name '" + name + "' is used twice in this topology");
        }
        nodeNames.put(name, name);
        if (n > 1) {
            generatedNames.add(name);
        }
        useSerde(consumed.keySerde(), true);
        useSerde(consumed.valueSerde(), false);
        SourceSpec source = new SourceSpec(name, topic, consumed, repartition, partitions, null, table);
        sources.add(source);
        return source;
    }

    /** Registers a source reading every topic matching {@code pattern}; returns its node name. */
    public String addPatternSource(Pattern pattern, Consumed<?, ?> consumed) {
        String name = "source:/" + pattern.pattern() + "/";
        if (nodeNames.containsKey(name)) {
            throw new IllegalArgumentException("The pattern /" + pattern.pattern() + "/ is already a source of this "
                    + "topology; read it once and use the stream in several places");
        }
        nodeNames.put(name, name);
        useSerde(consumed.keySerde(), true);
        useSerde(consumed.valueSerde(), false);
        sources.add(new SourceSpec(name, pattern.pattern(), consumed, false, -1, pattern));
        return name;
    }

    /**
     * Registers a global table of {@code topic} in store {@code storeName}.
     *
     * @throws IllegalArgumentException if the topic is read otherwise too, or the store name is taken
     */
    public void addGlobalTable(GlobalTableSpec table) {
        for (SourceSpec source : sources) {
            if (source.pattern() == null && source.topic().equals(table.topic())) {
                throw new IllegalArgumentException("Topic '" + table.topic() + "' is read as a global table and again "
                        + "in the tasks; read it once");
            }
        }
        for (GlobalTableSpec other : globalTables) {
            if (other.topic().equals(table.topic())) {
                throw new IllegalArgumentException("Topic '" + table.topic() + "' is already the global table '"
                        + other.storeName() + "'; read it once and share the table");
            }
        }
        if (stores.containsKey(table.storeName())
                || globalTables.stream().anyMatch(g -> g.storeName().equals(table.storeName()))) {
            throw new IllegalArgumentException(
                    "A store named '" + table.storeName() + "' already exists in this topology");
        }
        useSerde(table.consumed().keySerde(), true);
        useSerde(table.consumed().valueSerde(), false);
        globalTables.add(table);
    }

    /**
     * A fresh node name {@code <kind>-<n>}, noted as generated: it and every name made from it ({@code
     * <kind>-<n>-...}) are numbered in the order operators were added (see {@link TopologySpec#generatedName}).
     */
    public String newName(String kind) {
        counter++;
        String name = kind + "-" + counter;
        generatedNames.add(name);
        return name;
    }

    /** The name of a sink writing {@code topic}: {@code sink:<topic>}, {@code sink:<topic>-2} for a second sink of it, ... */
    public String sinkName(String topic) {
        String name = "sink:" + topic;
        for (int n = 2; nodeNames.containsKey(name); n++) {
            name = "sink:" + topic + "-" + n;
            generatedNames.add(name);
        }
        return name;
    }

    /** Adds a processor node under {@code name} with the given parents; returns its name. */
    public String addNode(
            String name,
            List<String> parents,
            Supplier<? extends Processor<?, ?>> processor,
            Set<String> storeNames,
            Set<String> outputTopics) {
        return addNode(name, parents, processor, storeNames, outputTopics, false);
    }

    /**
     * Adds a sink under {@code name}: a node that writes what reaches it to {@code outputTopics} (none when
     * it chooses the topic per record) and forwards nothing; returns its name.
     */
    public String addSink(
            String name,
            List<String> parents,
            Supplier<? extends Processor<?, ?>> processor,
            Set<String> outputTopics) {
        return addNode(name, parents, processor, Set.of(), outputTopics, true);
    }

    private String addNode(
            String name,
            List<String> parents,
            Supplier<? extends Processor<?, ?>> processor,
            Set<String> storeNames,
            Set<String> outputTopics,
            boolean sink) {
        if (nodeNames.containsKey(name)) {
            throw new IllegalArgumentException("The name '" + name + "' is used twice in this topology");
        }
        nodeNames.put(name, name);
        nodes.add(new NodeSpec(
                name, List.copyOf(parents), processor, Set.copyOf(storeNames), Set.copyOf(outputTopics), sink));
        return name;
    }

    public void addStore(StoreSpec store) {
        if (globalTables.stream().anyMatch(g -> g.storeName().equals(store.name()))
                || stores.putIfAbsent(store.name(), store) != null) {
            throw new IllegalArgumentException("A store named '" + store.name() + "' already exists in this topology");
        }
    }

    public TopologySpec build() {
        if (sources.isEmpty()) {
            throw new IllegalStateException("The topology has no source: call builder.stream(topic, ...) first");
        }
        return new TopologySpec(sources, nodes, stores, processingErrors, serdes, globalTables, generatedNames);
    }
}
