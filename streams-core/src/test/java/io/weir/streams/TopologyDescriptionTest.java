package io.weir.streams;

import io.weir.streams.TopologyDescription.InternalTopic;
import io.weir.streams.TopologyDescription.Node;
import io.weir.streams.TopologyDescription.Processor;
import io.weir.streams.TopologyDescription.Sink;
import io.weir.streams.TopologyDescription.Source;
import io.weir.streams.TopologyDescription.SourceKind;
import io.weir.streams.TopologyDescription.Store;
import io.weir.streams.TopologyDescription.SubTopology;
import io.weir.streams.TopologyDescription.TopicKind;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Deduplicated;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.JoinWindows;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Named;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Repartitioned;
import io.weir.streams.dsl.StreamJoined;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.StoreType;
import io.weir.streams.time.WatermarkStrategy;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rules of {@link Topology#describe()}: one test per rule, no broker. */
class TopologyDescriptionTest {

    private static final Consumed<String, String> STRINGS = Consumed.with(Serdes.String(), Serdes.String());
    private static final Produced<String, String> OUT = Produced.with(Serdes.String(), Serdes.String());

    @Test
    void aGeneratedOperatorNameIsFlaggedGenerated() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", STRINGS).filter((k, v) -> true).to("out", OUT);
        Node filter = only(builder.build().describe()).nodes().get(1);
        assertEquals("filter-1", filter.name());
        assertTrue(filter.generatedName());
    }

    @Test
    void aNameTheUserGaveIsNotFlaggedGenerated() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", STRINGS)
                .filter((k, v) -> true, Named.as("keep-all"))
                .to("out", OUT);
        Node filter = only(builder.build().describe()).node("keep-all").orElseThrow();
        assertFalse(filter.generatedName());
    }

    @Test
    void sourcesAndSinksNamedAfterTheirTopicsAreNotGeneratedButASecondReadIs() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", STRINGS).to("out", OUT);
        builder.stream("in", STRINGS).to("out", OUT);
        SubTopology sub = only(builder.build().describe());
        assertFalse(sub.node("source:in").orElseThrow().generatedName());
        assertFalse(sub.node("sink:out").orElseThrow().generatedName());
        assertTrue(sub.node("source:in-2").orElseThrow().generatedName());
        assertTrue(sub.node("sink:out-2").orElseThrow().generatedName());
    }

    @Test
    void anUnnamedOperatorsStoreAndChangelogAreGenerated() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", STRINGS).groupByKey().count();
        TopologyDescription description = builder.build().describe();
        Store store = only(description).stores().get(0);
        assertTrue(store.generatedName(), description.toString());
        InternalTopic changelog = description.internalTopics().get(0);
        assertEquals("<application.id>-" + store.name() + "-changelog", changelog.name());
        assertTrue(changelog.generatedName());
        assertTrue(
                description.generatedNames().contains(store.name()),
                description.generatedNames().toString());
    }

    @Test
    void aStoreNamedByMaterializedIsNotGeneratedAndShowsItsChangelog() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", STRINGS).groupByKey().count(Materialized.as("counts"));
        TopologyDescription description = builder.build().describe();
        Store store = only(description).store("counts").orElseThrow();
        assertFalse(store.generatedName());
        assertEquals(StoreType.ROCKSDB, store.type());
        assertEquals(Optional.of("<application.id>-counts-changelog"), store.changelogTopic());
        assertEquals(Optional.empty(), store.retention());
        assertTrue(store.queryable());
        assertEquals(
                List.of(new InternalTopic(
                        "<application.id>-counts-changelog",
                        false,
                        TopicKind.CHANGELOG,
                        OptionalInt.empty(),
                        Optional.empty(),
                        0,
                        0)),
                description.internalTopics());
    }

    @Test
    void aStoreWithLoggingDisabledHasNoChangelog() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", STRINGS)
                .groupByKey()
                .count(Materialized.<String, Long>as("counts").withLoggingDisabled());
        TopologyDescription description = builder.build().describe();
        assertEquals(Optional.empty(), only(description).stores().get(0).changelogTopic());
        assertEquals(List.of(), description.internalTopics());
        assertTrue(description.toString().contains("changelog none (logging disabled)"), description.toString());
    }

    @Test
    void aWindowStoresChangelogShowsItsRetention() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", STRINGS)
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofMinutes(1)).withAllowedLateness(Duration.ofMinutes(10)))
                .count(Materialized.as("per-minute"));
        TopologyDescription description = builder.build().describe();
        Store store = only(description).store("per-minute").orElseThrow();
        assertEquals(Optional.of(Duration.ofDays(1).plusMinutes(11)), store.retention());
        assertEquals(store.retention(), description.internalTopics().get(0).retention());
        assertTrue(description.toString().contains("retention 1d 11m"), description.toString());
    }

    @Test
    void aTableReadFromATopicRestoresFromThatTopicAndMakesNoChangelog() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.table("profiles", STRINGS, Materialized.as("profiles-store"));
        TopologyDescription description = builder.build().describe();
        SubTopology sub = only(description);
        Source source = (Source) sub.nodes().get(0);
        assertEquals(SourceKind.TABLE, source.kind());
        assertEquals(
                Optional.of("profiles"),
                sub.store("profiles-store").orElseThrow().changelogTopic());
        assertEquals(List.of(), description.internalTopics());
    }

    @Test
    void aRepartitionTopicIsListedWithItsNameWriterAndReader() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", STRINGS)
                .selectKey((k, v) -> v, Named.as("by-value"))
                .groupByKey(Grouped.<String, String>with(Serdes.String(), Serdes.String())
                        .withName("regroup"))
                .count(Materialized.as("counts"));
        TopologyDescription description = builder.build().describe();
        assertEquals(2, description.subTopologies().size(), description.toString());
        InternalTopic repartition = description.internalTopics().stream()
                .filter(t -> t.kind() == TopicKind.REPARTITION)
                .findFirst()
                .orElseThrow();
        assertEquals("<application.id>-regroup-repartition", repartition.name());
        assertFalse(repartition.generatedName());
        assertEquals(0, repartition.writtenBy());
        assertEquals(1, repartition.readBy());
        assertEquals(OptionalInt.empty(), repartition.partitions());
        Sink sink = (Sink) description
                .subTopologies()
                .get(0)
                .node("regroup-repartition-sink")
                .orElseThrow();
        assertTrue(sink.repartition());
        assertEquals(Optional.of(repartition.name()), sink.topic());
        Source source = (Source) description.subTopologies().get(1).nodes().get(0);
        assertEquals(SourceKind.REPARTITION, source.kind());
        assertEquals(repartition.name(), source.topic());
    }

    @Test
    void aRepartitionTopicOfAGeneratedOperatorIsGenerated() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", STRINGS).repartition().to("out", OUT);
        TopologyDescription description = builder.build().describe();
        InternalTopic topic = description.internalTopics().get(0);
        assertTrue(topic.generatedName(), description.toString());
        Source reader = (Source) description.subTopologies().get(1).nodes().get(0);
        assertTrue(reader.generatedName(), description.toString());
    }

    @Test
    void aRepartitionTopicWithAChosenPartitionCountShowsIt() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", STRINGS)
                .repartition(Repartitioned.<String, String>as("spread").withNumberOfPartitions(12))
                .to("out", OUT);
        TopologyDescription description = builder.build().describe();
        assertEquals(OptionalInt.of(12), description.internalTopics().get(0).partitions());
        assertTrue(description.toString().contains("12 partitions"), description.toString());
    }

    @Test
    void eachSourceShowsItsWatermarkStrategyAndWhereItsEventTimeComesFrom() {
        WatermarkStrategy bounded =
                WatermarkStrategy.boundedOutOfOrderness(Duration.ofSeconds(5)).withIdleness(Duration.ofSeconds(30));
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("a", STRINGS.withTimestamps(v -> 0L).withWatermarks(bounded))
                .to("out", OUT);
        builder.stream("b", STRINGS).to("out", OUT);
        TopologyDescription description = builder.build().describe();
        Source a = source(description, "source:a");
        Source b = source(description, "source:b");
        assertEquals(Optional.of(bounded), a.watermarkStrategy());
        assertTrue(a.extractsEventTime());
        assertEquals(Optional.of(WatermarkStrategy.forMonotonousTimestamps()), b.watermarkStrategy());
        assertFalse(b.extractsEventTime());
        String text = description.toString();
        assertTrue(
                text.contains("watermarks: delay 5s, idle after 30s, max future skew from max.future.skew.ms"), text);
        assertTrue(text.contains("event time: extracted from the record"), text);
        assertTrue(text.contains("event time: the record timestamp"), text);
    }

    @Test
    void aRepartitionSourceTakesItsWatermarkFromTheWritingTasks() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", STRINGS).repartition(Repartitioned.as("spread")).to("out", OUT);
        TopologyDescription description = builder.build().describe();
        Source reader = source(description, "source:spread-repartition");
        assertEquals(Optional.empty(), reader.watermarkStrategy());
        assertTrue(description.toString().contains("watermarks: from the writing tasks"), description.toString());
    }

    @Test
    void aStreamStreamJoinListsItsBuffersSharedByBothSides() {
        StreamsBuilder builder = new StreamsBuilder();
        EventStream<String, String> left = builder.stream("left", STRINGS);
        EventStream<String, String> right = builder.stream("right", STRINGS);
        left.join(
                        right,
                        (l, r) -> l + r,
                        JoinWindows.of(Duration.ofMinutes(5)),
                        StreamJoined.<String, String, String>with(Serdes.String(), Serdes.String(), Serdes.String())
                                .withName("pair"))
                .to("out", OUT);
        TopologyDescription description = builder.build().describe();
        SubTopology sub = only(description);
        Processor leftSide = (Processor) sub.node("pair-left").orElseThrow();
        Processor rightSide = (Processor) sub.node("pair-right").orElseThrow();
        assertFalse(leftSide.stores().isEmpty(), description.toString());
        assertEquals(leftSide.stores(), rightSide.stores());
        for (String store : leftSide.stores()) {
            Store s = sub.store(store).orElseThrow();
            assertEquals(List.of("pair-left", "pair-right"), s.users());
            assertFalse(s.generatedName());
            assertTrue(s.changelogTopic().orElseThrow().endsWith("-changelog"));
        }
    }

    @Test
    void aGlobalTableIsListedOutsideTheSubTopologies() {
        StreamsBuilder builder = new StreamsBuilder();
        var cards = builder.globalTable("cards", STRINGS);
        builder.stream("payments", STRINGS)
                .join(cards, (k, v) -> k, (v, card) -> v + card, Named.as("with-card"))
                .to("out", OUT);
        TopologyDescription description = builder.build().describe();
        assertEquals(
                List.of(new TopologyDescription.GlobalTable("cards-global", "cards", StoreType.ROCKSDB)),
                description.globalTables());
        assertTrue(only(description).stores().isEmpty());
        assertTrue(description.toString().contains("Global table cards-global"), description.toString());
    }

    @Test
    void lateRecordTopicsAreShownAsSideOutputs() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", STRINGS)
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofMinutes(1)))
                .lateRecordsTo("late")
                .count(Materialized.as("per-minute"));
        Processor window =
                (Processor) only(builder.build().describe()).node("per-minute").orElseThrow();
        assertEquals(List.of("late"), window.sideOutputs());
    }

    @Test
    void aSinkThatChoosesItsTopicPerRecordHasNoFixedTopic() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", STRINGS).to((k, v) -> "out-" + k, OUT);
        Sink sink = (Sink) only(builder.build().describe()).nodes().get(1);
        assertEquals(Optional.empty(), sink.topic());
        assertTrue(sink.generatedName());
    }

    @Test
    void predecessorsAndSuccessorsMirrorEachOther() {
        TopologyDescription description = wide().describe();
        for (SubTopology sub : description.subTopologies()) {
            for (Node node : sub.nodes()) {
                for (String next : node.successors()) {
                    assertTrue(sub.node(next).orElseThrow().predecessors().contains(node.name()), next);
                }
                for (String previous : node.predecessors()) {
                    assertTrue(sub.node(previous).orElseThrow().successors().contains(node.name()), previous);
                }
            }
        }
    }

    @Test
    void theSameTopologyGivesTheSameDescriptionTextDotAndSvg() {
        TopologyDescription first = wide().describe();
        TopologyDescription second = wide().describe();
        assertEquals(first, second);
        assertEquals(first.toString(), second.toString());
        assertEquals(first.toDot(), second.toDot());
        assertEquals(first.toSvg(), second.toSvg());
    }

    @Test
    void storesAreListedInTheOrderTheTopologyDeclaresThem() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", STRINGS)
                .deduplicate(
                        (k, v) -> v,
                        Duration.ofMinutes(1),
                        Deduplicated.with(Serdes.String()).withName("once"))
                .groupByKey()
                .count(Materialized.as("counts"));
        List<String> stores = only(builder.build().describe()).stores().stream()
                .map(Store::name)
                .toList();
        assertEquals(List.of("once", "once-expiry", "counts"), stores);
    }

    @Test
    void differentTopologiesGiveDifferentDescriptions() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", STRINGS).to("out", OUT);
        assertNotEquals(wide().describe(), builder.build().describe());
    }

    @Test
    void describedForAnApplicationIdInternalTopicsHaveTheirKafkaNames() {
        TopologyDescription description = wide().describe("shop");
        assertFalse(description.internalTopics().isEmpty());
        for (InternalTopic topic : description.internalTopics()) {
            assertTrue(topic.name().startsWith("shop-"), topic.name());
        }
        assertFalse(description.toString().contains(TopologyDescription.APPLICATION_ID_PLACEHOLDER));
    }

    @Test
    void topologyToStringIsTheDescriptionText() {
        Topology topology = wide();
        assertEquals(topology.describe().toString(), topology.toString());
    }

    @Test
    void theTextListsEachFactOnItsOwnLine() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "in",
                        STRINGS.withWatermarks(WatermarkStrategy.boundedOutOfOrderness(Duration.ofSeconds(2))
                                .withMaxFutureSkew(Duration.ofMinutes(5))))
                .mapValues(String::length)
                .groupByKey(Grouped.with(Serdes.String(), Serdes.Integer()))
                .count(Materialized.as("lengths"));
        assertEquals("""
                Topology: 1 sub-topology, 0 global tables, 1 internal topic

                Sub-topology 0
                  Source source:in
                      reads in as a stream
                      event time: the record timestamp
                      watermarks: delay 2s, no idleness, max future skew 5m
                      --> map-values-1
                  Processor map-values-1 (generated)
                      <-- source:in
                      --> lengths
                  Processor lengths
                      stores: lengths
                      <-- map-values-1
                  Store lengths
                      rocksdb, changelog <application.id>-lengths-changelog, queryable
                      used by lengths

                Internal topics
                  <application.id>-lengths-changelog
                      changelog of sub-topology 0, compact

                Generated names (each changes when an operator is added or removed before it, and a store or \
                topic named so starts empty under its new name: name them before deploying)
                  map-values-1
                """, builder.build().describe().toString());
    }

    @Test
    void theDotOutputIsWellFormed() {
        TopologyDescription description = wide().describe();
        String dot = description.toDot();
        assertTrue(dot.startsWith("digraph \"Topology\" {\n"), dot);
        assertTrue(dot.endsWith("}\n"), dot);
        assertEquals(count(dot, '{'), count(dot, '}'), dot);
        // Every quote is closed on its line, and every line ends a statement or opens/closes a block.
        Set<String> declared = new TreeSet<>();
        List<String[]> edges = new ArrayList<>();
        Pattern edge = Pattern.compile("^\\s*(\"(?:[^\"\\\\]|\\\\.)*\") -> (\"(?:[^\"\\\\]|\\\\.)*\")( \\[.*])?;$");
        Pattern node = Pattern.compile("^\\s*(\"(?:[^\"\\\\]|\\\\.)*\") \\[.*];$");
        for (String line : dot.split("\n", -1)) {
            String unescaped = line.replace("\\\\", "").replace("\\\"", "");
            assertEquals(0, count(unescaped, '"') % 2, line);
            String statement = line.trim();
            boolean attributes = statement.startsWith("node [")
                    || statement.startsWith("edge [")
                    || (statement.contains("=") && !statement.contains("["));
            if (statement.isEmpty() || statement.endsWith("{") || statement.equals("}") || attributes) {
                continue;
            }
            Matcher e = edge.matcher(line);
            Matcher n = node.matcher(line);
            if (e.matches()) {
                edges.add(new String[] {e.group(1), e.group(2)});
            } else if (n.matches()) {
                declared.add(n.group(1));
            } else {
                throw new AssertionError("not a DOT statement: " + line);
            }
        }
        for (String[] e : edges) {
            assertTrue(declared.contains(e[0]), e[0]);
            assertTrue(declared.contains(e[1]), e[1]);
        }
        for (SubTopology sub : description.subTopologies()) {
            assertTrue(dot.contains("subgraph \"cluster_" + sub.id() + "\""), dot);
            for (Node n : sub.nodes()) {
                assertTrue(declared.contains("\"node:" + n.name() + "\""), n.name());
            }
        }
    }

    @Test
    void theSvgIsWellFormedXmlNamingEveryNodeStoreAndTopic() throws Exception {
        TopologyDescription description = wide().describe();
        String svg = description.toSvg();
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        Document doc =
                factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertEquals("svg", doc.getDocumentElement().getLocalName());
        String text = doc.getDocumentElement().getTextContent();
        for (SubTopology sub : description.subTopologies()) {
            assertTrue(text.contains("Sub-topology " + sub.id()), text);
            sub.nodes().forEach(n -> assertTrue(text.contains(n.name()), n.name()));
            sub.stores().forEach(s -> assertTrue(text.contains(s.name()), s.name()));
        }
        for (InternalTopic topic : description.internalTopics()) {
            if (topic.kind() == TopicKind.REPARTITION) {
                assertTrue(text.contains(topic.name()), topic.name());
            }
        }
    }

    @Test
    void aPatternSourceShowsItsPattern() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(Pattern.compile("orders-.*"), STRINGS).to("out", OUT);
        Source source = (Source) only(builder.build().describe()).nodes().get(0);
        assertEquals(SourceKind.PATTERN, source.kind());
        assertEquals("orders-.*", source.topic());
    }

    /** Two sub-topologies, a window store with a side output, a table, a join and generated names. */
    private static Topology wide() {
        Supplier<StreamsBuilder> make = StreamsBuilder::new;
        StreamsBuilder builder = make.get();
        var profiles = builder.table("profiles", STRINGS, Materialized.as("profiles"));
        builder.stream("clicks", STRINGS)
                .join(profiles, (click, profile) -> click + profile)
                .map((k, v) -> KeyValue.pair(v, k))
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .windowedBy(TumblingWindows.of(Duration.ofMinutes(1)))
                .lateRecordsTo("late-clicks")
                .count()
                .toStream()
                .filter((w, n) -> n > 1)
                .map((w, n) -> KeyValue.pair(w.key(), String.valueOf(n)))
                .to("busy", OUT);
        return builder.build();
    }

    private static SubTopology only(TopologyDescription description) {
        assertEquals(1, description.subTopologies().size(), description.toString());
        return description.subTopologies().get(0);
    }

    private static Source source(TopologyDescription description, String name) {
        return description.subTopologies().stream()
                .flatMap(s -> s.node(name).stream())
                .map(Source.class::cast)
                .findFirst()
                .orElseThrow();
    }

    private static long count(String s, char c) {
        return s.chars().filter(x -> x == c).count();
    }
}
