package io.weir.streams;

import io.weir.streams.internals.processor.InternalTopics;
import io.weir.streams.internals.topology.GlobalTableSpec;
import io.weir.streams.internals.topology.NodeSpec;
import io.weir.streams.internals.topology.SourceSpec;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.internals.topology.SubtopologySpec;
import io.weir.streams.internals.topology.TopologySpec;
import io.weir.streams.time.TimestampExtractor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/** Reads a {@link TopologySpec} into the public {@link TopologyDescription}. */
final class TopologyDescriber {

    private TopologyDescriber() {}

    /** The description of {@code spec}, with internal topics named for {@code applicationId}. */
    static TopologyDescription describe(TopologySpec spec, String applicationId) {
        Set<String> repartitionTopics = spec.repartitionTopics();
        List<TopologyDescription.SubTopology> subs = new ArrayList<>();
        List<TopologyDescription.InternalTopic> internal = new ArrayList<>();
        for (SubtopologySpec sub : spec.subtopologies()) {
            List<TopologyDescription.Node> nodes = new ArrayList<>();
            for (SourceSpec source : sub.sources()) {
                nodes.add(source(spec, sub, source, applicationId));
                if (source.repartition()) {
                    internal.add(new TopologyDescription.InternalTopic(
                            source.topic(applicationId),
                            spec.generatedName(source.topic()),
                            TopologyDescription.TopicKind.REPARTITION,
                            source.partitions() > 0 ? OptionalInt.of(source.partitions()) : OptionalInt.empty(),
                            Optional.empty(),
                            spec.writerOf(source.topic()).id(),
                            sub.id()));
                }
            }
            for (NodeSpec node : sub.nodes()) {
                boolean generated = spec.generatedName(node.name());
                List<String> successors = successors(sub, node.name());
                if (node.sink()) {
                    Optional<String> topic = node.outputTopics().stream().findFirst();
                    boolean repartition = topic.isPresent() && repartitionTopics.contains(topic.get());
                    nodes.add(new TopologyDescription.Sink(
                            node.name(),
                            generated,
                            repartition ? topic.map(t -> InternalTopics.name(applicationId, t)) : topic,
                            repartition,
                            node.parents()));
                } else {
                    nodes.add(new TopologyDescription.Processor(
                            node.name(),
                            generated,
                            node.stores().stream().sorted().toList(),
                            node.outputTopics().stream().sorted().toList(),
                            node.parents(),
                            successors));
                }
            }
            List<TopologyDescription.Store> stores = new ArrayList<>();
            // In the order the topology declared them: a sub-topology's own set of names has no fixed order.
            List<StoreSpec> declared = spec.stores().values().stream()
                    .filter(store -> sub.stores().contains(store.name()))
                    .toList();
            for (StoreSpec store : declared) {
                Optional<Duration> retention = store.ownChangelog() && store.retentionMs() >= 0
                        ? Optional.of(Duration.ofMillis(store.retentionMs()))
                        : Optional.empty();
                stores.add(new TopologyDescription.Store(
                        store.name(),
                        spec.generatedName(store.name()),
                        store.type(),
                        store.logged() ? Optional.of(store.changelogTopic(applicationId)) : Optional.empty(),
                        retention,
                        store.queryable() != null,
                        sub.nodes().stream()
                                .filter(n -> n.stores().contains(store.name()))
                                .map(NodeSpec::name)
                                .toList()));
                if (store.ownChangelog()) {
                    internal.add(new TopologyDescription.InternalTopic(
                            store.changelogTopic(applicationId),
                            spec.generatedName(store.name()),
                            TopologyDescription.TopicKind.CHANGELOG,
                            OptionalInt.empty(),
                            retention,
                            sub.id(),
                            sub.id()));
                }
            }
            subs.add(new TopologyDescription.SubTopology(sub.id(), nodes, stores));
        }
        List<TopologyDescription.GlobalTable> globals = new ArrayList<>();
        for (GlobalTableSpec table : spec.globalTables()) {
            globals.add(new TopologyDescription.GlobalTable(table.storeName(), table.topic(), table.storeType()));
        }
        internal.sort(Comparator.comparing(TopologyDescription.InternalTopic::name));
        return new TopologyDescription(subs, globals, internal);
    }

    private static TopologyDescription.Source source(
            TopologySpec spec, SubtopologySpec sub, SourceSpec source, String applicationId) {
        TopologyDescription.SourceKind kind;
        if (source.pattern() != null) {
            kind = TopologyDescription.SourceKind.PATTERN;
        } else if (source.repartition()) {
            kind = source.table()
                    ? TopologyDescription.SourceKind.JOIN_MESSAGES
                    : TopologyDescription.SourceKind.REPARTITION;
        } else {
            kind = source.table() ? TopologyDescription.SourceKind.TABLE : TopologyDescription.SourceKind.STREAM;
        }
        return new TopologyDescription.Source(
                source.nodeName(),
                spec.generatedName(source.nodeName()) || (source.repartition() && spec.generatedName(source.topic())),
                source.topic(applicationId),
                kind,
                // The default extractor is one shared instance: a lambda that captures nothing.
                source.consumed().timestampExtractor() != TimestampExtractor.recordTimestamp(),
                source.repartition()
                        ? Optional.empty()
                        : Optional.of(source.consumed().watermarkStrategy()),
                successors(sub, source.nodeName()));
    }

    /** The nodes of {@code sub} that name {@code name} among their parents, in the order they were added. */
    private static List<String> successors(SubtopologySpec sub, String name) {
        return sub.nodes().stream()
                .filter(n -> n.parents().contains(name))
                .map(NodeSpec::name)
                .toList();
    }
}
