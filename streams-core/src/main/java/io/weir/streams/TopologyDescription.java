package io.weir.streams;

import io.weir.streams.internals.drawing.DotWriter;
import io.weir.streams.internals.drawing.Drawing;
import io.weir.streams.internals.drawing.SvgWriter;
import io.weir.streams.state.StoreType;
import io.weir.streams.time.WatermarkStrategy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * What a topology runs, as Weir will run it, from {@link Topology#describe()}: its sub-topologies (each
 * source with its watermark strategy, each operator and sink, each store with its changelog), its global
 * tables and the internal topics the application makes. Read it before deploying a change: a name marked
 * generated ({@link Node#generatedName()}) is numbered in the order operators were added, so adding or
 * removing an operator before it renames it, and with it the state and the topics named after it, which a
 * running application then no longer finds. Give such operators a name ({@code Named}, {@code
 * Materialized.as}, {@code Grouped.as}, {@code StreamJoined.withName}, ...) before their state matters.
 *
 * <p>{@link #toString()} is a readable text, {@link #toDot()} a Graphviz graph and {@link #toSvg()} a
 * drawing made without Graphviz. All three depend only on the topology (and the application id it was
 * described for): the same topology gives the same text, byte for byte, so a test can compare it with the
 * text of the version deployed. Immutable; equal descriptions have equal text.
 */
public final class TopologyDescription {

    /** What {@link Topology#describe()} writes in place of the application id in internal topic names. */
    public static final String APPLICATION_ID_PLACEHOLDER = "<application.id>";

    private final List<SubTopology> subTopologies;
    private final List<GlobalTable> globalTables;
    private final List<InternalTopic> internalTopics;
    private final String text;

    TopologyDescription(
            List<SubTopology> subTopologies, List<GlobalTable> globalTables, List<InternalTopic> internalTopics) {
        this.subTopologies = List.copyOf(subTopologies);
        this.globalTables = List.copyOf(globalTables);
        this.internalTopics = List.copyOf(internalTopics);
        this.text = text();
    }

    /**
     * The sub-topologies, by id. A sub-topology is a connected part of the graph; a repartition topic ends
     * one and starts another. Each runs as one task per partition of its input topics.
     *
     * @return the sub-topologies, ordered by id
     */
    public List<SubTopology> subTopologies() {
        return subTopologies;
    }

    /**
     * The global tables: every instance holds all of each one's topic, outside the tasks.
     *
     * @return the global tables, in the order the topology declared them
     */
    public List<GlobalTable> globalTables() {
        return globalTables;
    }

    /**
     * The topics the application creates for itself at start (repartition topics and stores' changelogs),
     * named as in Kafka: {@code <application.id>-<name>}.
     *
     * @return the internal topics, sorted by name
     */
    public List<InternalTopic> internalTopics() {
        return internalTopics;
    }

    /**
     * Every generated name of a node, store or internal topic: what should be named before the topology's
     * state matters (see the class comment).
     *
     * @return the generated names, in the order this description lists them, each once
     */
    public List<String> generatedNames() {
        Set<String> names = new LinkedHashSet<>();
        for (SubTopology sub : subTopologies) {
            sub.nodes().stream().filter(Node::generatedName).forEach(n -> names.add(n.name()));
            sub.stores().stream().filter(Store::generatedName).forEach(s -> names.add(s.name()));
        }
        internalTopics.stream().filter(InternalTopic::generatedName).forEach(t -> names.add(t.name()));
        return List.copyOf(names);
    }

    /**
     * The description as Graphviz DOT: one cluster per sub-topology, topics as ellipses (internal ones
     * dashed), stores as cylinders joined to their operators by dotted lines, side outputs as dashed arrows.
     * Render it with {@code dot -Tsvg}.
     *
     * @return a {@code digraph}, ending with a newline
     */
    public String toDot() {
        return DotWriter.write(drawing());
    }

    /**
     * The description drawn as a standalone SVG image, laid out by Weir itself (no Graphviz needed): each
     * sub-topology a frame, the one that writes a repartition topic above those that read it, the same
     * shapes as {@link #toDot()}.
     *
     * @return an {@code <svg>} document, ending with a newline
     */
    public String toSvg() {
        return SvgWriter.write(drawing());
    }

    /**
     * The description as text: each sub-topology with its nodes (their topics, stores, side outputs,
     * predecessors and successors) and stores, then the global tables, then the internal topics, then the
     * generated names. Names Weir generated end with {@code (generated)}.
     *
     * @return the text, one fact per line, ending with a newline
     */
    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TopologyDescription d
                && d.subTopologies.equals(subTopologies)
                && d.globalTables.equals(globalTables)
                && d.internalTopics.equals(internalTopics);
    }

    @Override
    public int hashCode() {
        return Objects.hash(subTopologies, globalTables, internalTopics);
    }

    /**
     * A connected part of the topology, run as one task per partition of its input topics.
     *
     * @param id     the sub-topology's number, the first part of its tasks' ids ({@code <id>_<partition>})
     * @param nodes  its sources, then its operators and sinks in the order records reach them (each node after
     *               its predecessors)
     * @param stores the stores its operators use, in the order they declare them; each task has its own
     */
    public record SubTopology(int id, List<Node> nodes, List<Store> stores) {

        /**
         * Copies the lists.
         *
         * @param id     the sub-topology's number
         * @param nodes  its nodes, sources first
         * @param stores its stores
         */
        public SubTopology {
            nodes = List.copyOf(nodes);
            stores = List.copyOf(stores);
        }

        /**
         * The node named {@code name}.
         *
         * @param name a node's name
         * @return the node, if this sub-topology has it
         */
        public Optional<Node> node(String name) {
            return nodes.stream().filter(n -> n.name().equals(name)).findFirst();
        }

        /**
         * The store named {@code name}.
         *
         * @param name a store's name
         * @return the store, if this sub-topology has it
         */
        public Optional<Store> store(String name) {
            return stores.stream().filter(s -> s.name().equals(name)).findFirst();
        }
    }

    /** A node of the graph: a {@link Source}, a {@link Processor} or a {@link Sink}. */
    public sealed interface Node permits Source, Processor, Sink {

        /**
         * The node's name, unique in the topology: in metrics, logs and {@code ProcessingError.operator()}.
         *
         * @return the name
         */
        String name();

        /**
         * Whether Weir numbered the name ({@code <kind>-<n>}, or {@code source:<topic>-2} for a second read
         * of a topic) rather than the user giving it or a topic's name making it: such a name changes when
         * operators are added or removed before it.
         *
         * @return true for a generated name
         */
        boolean generatedName();

        /**
         * The nodes that send records to this one.
         *
         * @return their names, in the order the node was given them; none for a source
         */
        List<String> predecessors();

        /**
         * The nodes this one sends records to, in the same sub-topology.
         *
         * @return their names, in the order they were added; none for a sink
         */
        List<String> successors();
    }

    /**
     * Where records enter a sub-topology.
     *
     * @param name              the node's name: {@code source:<topic>}
     * @param generatedName     whether the name was numbered (a later read of a topic read before) or comes
     *                          from a generated repartition topic
     * @param topic             the topic read, as named in Kafka; for {@link SourceKind#PATTERN} the pattern
     * @param kind              how the topic is read
     * @param extractsEventTime whether a {@code TimestampExtractor} (from {@code Consumed.withTimestamps}
     *                          or {@code withTimestampExtractor}) gives the event time, rather than the Kafka
     *                          record's timestamp
     * @param watermarkStrategy how the source's partitions' watermarks follow event times; empty for a
     *                          repartition topic, whose watermark comes from the tasks that write it, and for
     *                          a join's messages about table rows, which have none
     * @param successors        the nodes it sends records to
     */
    public record Source(
            String name,
            boolean generatedName,
            String topic,
            SourceKind kind,
            boolean extractsEventTime,
            Optional<WatermarkStrategy> watermarkStrategy,
            List<String> successors)
            implements Node {

        /**
         * Copies the list.
         *
         * @param name              the node's name
         * @param generatedName     whether the name was generated
         * @param topic             the topic or pattern
         * @param kind              how it is read
         * @param extractsEventTime whether an extractor gives the event time
         * @param watermarkStrategy its watermark strategy, if it has one
         * @param successors        the nodes it sends records to
         */
        public Source {
            successors = List.copyOf(successors);
        }

        /**
         * None: records enter the graph here.
         *
         * @return an empty list
         */
        @Override
        public List<String> predecessors() {
            return List.of();
        }
    }

    /** How a {@link Source} reads its topic. */
    public enum SourceKind {
        /** A topic read as a stream ({@code StreamsBuilder.stream(topic, ...)}). */
        STREAM,
        /** Every topic matching a pattern, as a stream ({@code StreamsBuilder.stream(Pattern, ...)}). */
        PATTERN,
        /**
         * A topic read as a table ({@code StreamsBuilder.table}): the topic is its store's changelog, and its
         * partitions do not hold back the watermark of the streams read beside it.
         */
        TABLE,
        /** A repartition topic: records re-keyed upstream, with the upstream tasks' watermarks. */
        REPARTITION,
        /** A repartition topic carrying a foreign-key join's messages about table rows; no watermark. */
        JOIN_MESSAGES
    }

    /**
     * An operator.
     *
     * @param name          the operator's name
     * @param generatedName whether the name was generated ({@code <kind>-<n>} or made from one)
     * @param stores        the stores it reads and writes, sorted
     * @param sideOutputs   the topics it writes records it refuses to (late records), sorted
     * @param predecessors  the nodes that send it records
     * @param successors    the nodes it sends records to
     */
    public record Processor(
            String name,
            boolean generatedName,
            List<String> stores,
            List<String> sideOutputs,
            List<String> predecessors,
            List<String> successors)
            implements Node {

        /**
         * Copies the lists.
         *
         * @param name          the operator's name
         * @param generatedName whether the name was generated
         * @param stores        its stores
         * @param sideOutputs   its side-output topics
         * @param predecessors  the nodes that send it records
         * @param successors    the nodes it sends records to
         */
        public Processor {
            stores = List.copyOf(stores);
            sideOutputs = List.copyOf(sideOutputs);
            predecessors = List.copyOf(predecessors);
            successors = List.copyOf(successors);
        }
    }

    /**
     * Where records leave a sub-topology: to a user topic, to a topic chosen per record, or to a repartition
     * topic that another sub-topology reads.
     *
     * @param name          the node's name: {@code sink:<topic>} for a topic, {@code <base>-repartition-sink}
     *                      for a repartition topic
     * @param generatedName whether the name was generated
     * @param topic         the topic written, as named in Kafka; empty when a {@code TopicNameExtractor} chooses
     *                      it per record
     * @param repartition   whether the topic is a repartition topic, which the application makes and reads
     * @param predecessors  the nodes that send it records
     */
    public record Sink(
            String name, boolean generatedName, Optional<String> topic, boolean repartition, List<String> predecessors)
            implements Node {

        /**
         * Copies the list.
         *
         * @param name          the node's name
         * @param generatedName whether the name was generated
         * @param topic         the topic, if fixed
         * @param repartition   whether it is a repartition topic
         * @param predecessors  the nodes that send it records
         */
        public Sink {
            predecessors = List.copyOf(predecessors);
        }

        /**
         * None: a sink forwards nothing.
         *
         * @return an empty list
         */
        @Override
        public List<String> successors() {
            return List.of();
        }
    }

    /**
     * A state store; each task of its sub-topology has its own.
     *
     * @param name           the store's name, also its name for {@code WeirStreams.store} and in its changelog
     * @param generatedName  whether the name was generated (an unnamed operator's store): such a store is
     *                       renamed, and starts empty under its new name, when operators are added before it
     * @param type           where it keeps its data
     * @param changelogTopic the topic it restores from, as named in Kafka: its own changelog {@code
     *                       <application.id>-<name>-changelog}, or for a table read from a topic, that topic;
     *                       empty when logging is disabled
     * @param retention      how long its changelog keeps records ({@code compact,delete}): a window store's
     *                       windows, allowed lateness and a day; empty for a compacted key-value changelog
     * @param queryable      whether interactive queries can read it ({@code WeirStreams.store})
     * @param users          the operators that use it
     */
    public record Store(
            String name,
            boolean generatedName,
            StoreType type,
            Optional<String> changelogTopic,
            Optional<Duration> retention,
            boolean queryable,
            List<String> users) {

        /**
         * Copies the list.
         *
         * @param name           the store's name
         * @param generatedName  whether the name was generated
         * @param type           where it keeps its data
         * @param changelogTopic the topic it restores from, if logged
         * @param retention      its changelog's retention, if time-bounded
         * @param queryable      whether queries can read it
         * @param users          the operators that use it
         */
        public Store {
            users = List.copyOf(users);
        }
    }

    /**
     * A global table: every instance reads all of {@code topic} into {@code store}, outside the tasks.
     *
     * @param store     the store's name, for {@code WeirStreams.store} and joins
     * @param topic     the topic it holds, which is also its log
     * @param storeType where it keeps its data
     */
    public record GlobalTable(String store, String topic, StoreType storeType) {}

    /**
     * A topic the application creates at start and deletes nothing of by itself.
     *
     * @param name          its name in Kafka, {@code <application.id>-<name>}
     * @param generatedName whether the name is made from a generated operator name: such a topic is replaced
     *                      by a new one, and its records left behind, when operators are added before it
     * @param kind          what it holds
     * @param partitions    a repartition topic's chosen partition count; empty when it takes the task count
     *                      of the sub-topology that writes it (or, for a changelog, its store's)
     * @param retention     a window store changelog's retention; empty for the others
     * @param writtenBy     the id of the sub-topology that writes it
     * @param readBy        the id of the sub-topology that reads it (a changelog: restores from it)
     */
    public record InternalTopic(
            String name,
            boolean generatedName,
            TopicKind kind,
            OptionalInt partitions,
            Optional<Duration> retention,
            int writtenBy,
            int readBy) {}

    /** What an {@link InternalTopic} holds. */
    public enum TopicKind {
        /**
         * Records re-keyed by one sub-topology for another, with watermark marks; not compacted, and purged
         * by Weir once read and committed.
         */
        REPARTITION,
        /** A store's changelog: compacted, and for a window store also deleted after its retention. */
        CHANGELOG
    }

    private String text() {
        StringBuilder out = new StringBuilder();
        out.append("Topology: ")
                .append(count(subTopologies.size(), "sub-topology", "sub-topologies"))
                .append(", ")
                .append(count(globalTables.size(), "global table", "global tables"))
                .append(", ")
                .append(count(internalTopics.size(), "internal topic", "internal topics"))
                .append('\n');
        for (SubTopology sub : subTopologies) {
            out.append("\nSub-topology ").append(sub.id()).append('\n');
            for (Node node : sub.nodes()) {
                node(out, node);
            }
            for (Store store : sub.stores()) {
                out.append("  Store ")
                        .append(named(store.name(), store.generatedName()))
                        .append('\n');
                out.append("      ")
                        .append(store.type().name().toLowerCase(Locale.ROOT).replace('_', '-'))
                        .append(", changelog ")
                        .append(store.changelogTopic().orElse("none (logging disabled)"));
                store.retention().ifPresent(r -> out.append(", retention ").append(duration(r)));
                if (store.queryable()) {
                    out.append(", queryable");
                }
                out.append('\n');
                out.append("      used by ")
                        .append(String.join(", ", store.users()))
                        .append('\n');
            }
        }
        if (!globalTables.isEmpty()) {
            out.append("\nGlobal tables\n");
            for (GlobalTable table : globalTables) {
                out.append("  Global table ")
                        .append(table.store())
                        .append('\n')
                        .append("      reads ")
                        .append(table.topic())
                        .append(" (its log) into every instance, ")
                        .append(table.storeType()
                                .name()
                                .toLowerCase(Locale.ROOT)
                                .replace('_', '-'))
                        .append('\n');
            }
        }
        if (!internalTopics.isEmpty()) {
            out.append("\nInternal topics\n");
            for (InternalTopic topic : internalTopics) {
                out.append("  ")
                        .append(named(topic.name(), topic.generatedName()))
                        .append('\n');
                out.append("      ");
                if (topic.kind() == TopicKind.REPARTITION) {
                    out.append("repartition, written by sub-topology ")
                            .append(topic.writtenBy())
                            .append(", read by sub-topology ")
                            .append(topic.readBy())
                            .append(", ");
                    if (topic.partitions().isPresent()) {
                        out.append(topic.partitions().getAsInt()).append(" partitions");
                    } else {
                        out.append("partitions as the writing tasks");
                    }
                } else {
                    out.append("changelog of sub-topology ")
                            .append(topic.writtenBy())
                            .append(", ")
                            .append(topic.retention()
                                    .map(r -> "compact,delete, retention " + duration(r))
                                    .orElse("compact"));
                }
                out.append('\n');
            }
        }
        List<String> generated = generatedNames();
        if (!generated.isEmpty()) {
            out.append("\nGenerated names (each changes when an operator is added or removed before it, and a "
                            + "store or topic named so starts empty under its new name: name them before deploying)\n")
                    .append("  ")
                    .append(String.join(", ", generated))
                    .append('\n');
        }
        return out.toString();
    }

    private static void node(StringBuilder out, Node node) {
        if (node instanceof Source source) {
            out.append("  Source ")
                    .append(named(source.name(), source.generatedName()))
                    .append('\n');
            out.append("      reads ")
                    .append(
                            source.kind() == SourceKind.PATTERN
                                    ? "topics matching /" + source.topic() + "/"
                                    : source.topic())
                    .append(
                            switch (source.kind()) {
                                case STREAM, PATTERN -> " as a stream";
                                case TABLE -> " as a table";
                                case REPARTITION -> " (repartition)";
                                case JOIN_MESSAGES -> " (foreign-key join messages)";
                            })
                    .append('\n');
            out.append("      event time: ")
                    .append(
                            source.kind() == SourceKind.REPARTITION || source.kind() == SourceKind.JOIN_MESSAGES
                                    ? "as the writing tasks set it"
                                    : source.extractsEventTime() ? "extracted from the record" : "the record timestamp")
                    .append('\n');
            out.append("      watermarks: ")
                    .append(source.watermarkStrategy()
                            .map(TopologyDescription::watermarks)
                            .orElse(
                                    source.kind() == SourceKind.REPARTITION
                                            ? "from the writing tasks"
                                            : "none (table row messages)"))
                    .append('\n');
        } else if (node instanceof Processor processor) {
            out.append("  Processor ")
                    .append(named(processor.name(), processor.generatedName()))
                    .append('\n');
            if (!processor.stores().isEmpty()) {
                out.append("      stores: ")
                        .append(String.join(", ", processor.stores()))
                        .append('\n');
            }
            if (!processor.sideOutputs().isEmpty()) {
                out.append("      late records to: ")
                        .append(String.join(", ", processor.sideOutputs()))
                        .append('\n');
            }
        } else if (node instanceof Sink sink) {
            out.append("  Sink ")
                    .append(named(sink.name(), sink.generatedName()))
                    .append('\n');
            out.append("      writes ")
                    .append(sink.topic().orElse("the topic a TopicNameExtractor chooses per record"))
                    .append(sink.repartition() ? " (repartition)" : "")
                    .append('\n');
        }
        if (!node.predecessors().isEmpty()) {
            out.append("      <-- ")
                    .append(String.join(", ", node.predecessors()))
                    .append('\n');
        }
        if (!node.successors().isEmpty()) {
            out.append("      --> ")
                    .append(String.join(", ", node.successors()))
                    .append('\n');
        }
    }

    /** A watermark strategy in words: delay, idleness and the maximum future skew. */
    static String watermarks(WatermarkStrategy strategy) {
        StringBuilder out = new StringBuilder();
        out.append(strategy.delay().isZero() ? "no delay" : "delay " + duration(strategy.delay()));
        out.append(strategy.idleness().map(i -> ", idle after " + duration(i)).orElse(", no idleness"));
        if (!strategy.futureSkewSet()) {
            out.append(", max future skew from max.future.skew.ms");
        } else {
            out.append(strategy.maxFutureSkew()
                    .map(s -> ", max future skew " + duration(s))
                    .orElse(", no max future skew"));
        }
        return out.toString();
    }

    /** A duration as {@code 1d 2h 3m 4s 5ms}, leaving out zero parts; {@code 0ms} for zero. */
    static String duration(Duration d) {
        long ms = d.toMillis();
        if (ms == 0) {
            return "0ms";
        }
        List<String> parts = new ArrayList<>();
        long[] sizes = {86_400_000L, 3_600_000L, 60_000L, 1_000L, 1L};
        String[] units = {"d", "h", "m", "s", "ms"};
        for (int i = 0; i < sizes.length; i++) {
            if (ms >= sizes[i]) {
                parts.add(ms / sizes[i] + units[i]);
                ms %= sizes[i];
            }
        }
        return String.join(" ", parts);
    }

    private static String named(String name, boolean generated) {
        return generated ? name + " (generated)" : name;
    }

    private static String count(int n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    /** The description as boxes and lines: nodes, stores and topics. */
    private Drawing drawing() {
        List<Drawing.Group> groups = new ArrayList<>();
        List<Drawing.Box> boxes = new ArrayList<>();
        List<Drawing.Line> lines = new ArrayList<>();
        Set<String> topics = new LinkedHashSet<>();
        Set<String> internal = new LinkedHashSet<>();
        internalTopics.forEach(t -> internal.add(t.name()));
        for (SubTopology sub : subTopologies) {
            String group = "sub-topology " + sub.id();
            groups.add(new Drawing.Group(group, "Sub-topology " + sub.id()));
            for (Node node : sub.nodes()) {
                String id = "node:" + node.name();
                List<String> text = new ArrayList<>();
                text.add(node.name());
                Drawing.Shape shape;
                if (node instanceof Source source) {
                    shape = Drawing.Shape.SOURCE;
                    text.add(source.watermarkStrategy()
                            .map(TopologyDescription::shortWatermarks)
                            .orElse(source.kind() == SourceKind.REPARTITION ? "W from writers" : "no watermark"));
                    String topic = source.kind() == SourceKind.PATTERN ? "/" + source.topic() + "/" : source.topic();
                    topics.add(topic);
                    lines.add(new Drawing.Line("topic:" + topic, id, Drawing.Style.FLOW));
                } else if (node instanceof Sink sink) {
                    shape = Drawing.Shape.SINK;
                    String topic = sink.topic().orElse("(chosen per record)");
                    topics.add(topic);
                    lines.add(new Drawing.Line(id, "topic:" + topic, Drawing.Style.FLOW));
                } else {
                    Processor processor = (Processor) node;
                    shape = Drawing.Shape.PROCESSOR;
                    for (String side : processor.sideOutputs()) {
                        topics.add(side);
                        lines.add(new Drawing.Line(id, "topic:" + side, Drawing.Style.SIDE_OUTPUT));
                    }
                    for (String store : processor.stores()) {
                        lines.add(new Drawing.Line(id, "store:" + store, Drawing.Style.STORE));
                    }
                }
                if (node.generatedName()) {
                    text.add("(generated name)");
                }
                boxes.add(new Drawing.Box(id, text, shape, group));
                for (String successor : node.successors()) {
                    lines.add(new Drawing.Line(id, "node:" + successor, Drawing.Style.FLOW));
                }
            }
            for (Store store : sub.stores()) {
                List<String> text = new ArrayList<>();
                text.add(store.name());
                text.add(store.changelogTopic().isPresent() ? "changelog" : "no changelog");
                if (store.generatedName()) {
                    text.add("(generated name)");
                }
                boxes.add(new Drawing.Box("store:" + store.name(), text, Drawing.Shape.STORE, group));
            }
        }
        if (!globalTables.isEmpty()) {
            groups.add(new Drawing.Group("global", "Global tables"));
            for (GlobalTable table : globalTables) {
                boxes.add(new Drawing.Box(
                        "store:" + table.store(), List.of(table.store(), "global"), Drawing.Shape.STORE, "global"));
                topics.add(table.topic());
                lines.add(new Drawing.Line("topic:" + table.topic(), "store:" + table.store(), Drawing.Style.FLOW));
            }
        }
        for (String topic : topics) {
            boxes.add(new Drawing.Box(
                    "topic:" + topic,
                    List.of(topic),
                    internal.contains(topic) ? Drawing.Shape.INTERNAL_TOPIC : Drawing.Shape.TOPIC,
                    null));
        }
        return new Drawing("Topology", groups, boxes, lines);
    }

    /** A watermark strategy in a few characters, for a drawing. */
    private static String shortWatermarks(WatermarkStrategy strategy) {
        return "W: delay " + duration(strategy.delay())
                + strategy.idleness().map(i -> ", idle " + duration(i)).orElse("");
    }
}
