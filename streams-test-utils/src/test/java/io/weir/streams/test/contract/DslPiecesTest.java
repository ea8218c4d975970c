package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.TopologyDescription;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Named;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Repartitioned;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.errors.ProcessingError;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.state.KeyValueStore;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The DSL pieces Kafka Streams users reach for: foreach, dynamic topics, partitioners, groupBy, names, scans. */
class DslPiecesTest {

    private static EventStream<String, String> words(StreamsBuilder builder) {
        return builder.stream("words", Consumed.with(Serdes.String(), Serdes.String()));
    }

    @Test
    void foreachRunsTheActionOnEveryRecordAndEndsTheStream() {
        List<String> seen = new ArrayList<>();
        StreamsBuilder builder = new StreamsBuilder();
        words(builder).foreach((k, v) -> seen.add(k + "=" + v));
        try (TestDriver driver = new TestDriver(builder.build())) {
            TestInputTopic<String, String> in = driver.input("words", Serdes.String(), Serdes.String());
            in.pipe("a", "x");
            in.pipe("b", "y");
        }
        assertEquals(List.of("a=x", "b=y"), seen);
    }

    @Test
    void aTopicNameExtractorWritesEachRecordToTheTopicItChooses() {
        StreamsBuilder builder = new StreamsBuilder();
        words(builder).to((k, v) -> "words-" + k, Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build())) {
            TestInputTopic<String, String> in = driver.input("words", Serdes.String(), Serdes.String());
            in.pipe("en", "hello");
            in.pipe("fr", "bonjour");
            in.pipe("en", "bye");
            assertEquals(
                    List.of("hello", "bye"),
                    driver.output("words-en", Serdes.String(), Serdes.String()).readValues());
            assertEquals(
                    List.of("bonjour"),
                    driver.output("words-fr", Serdes.String(), Serdes.String()).readValues());
        }
    }

    @Test
    void aPartitionerChoosesEachRecordsPartition() {
        StreamsBuilder builder = new StreamsBuilder();
        words(builder)
                .to(
                        "out",
                        Produced.with(Serdes.String(), Serdes.String())
                                .withPartitioner((topic, k, v, n) -> v.length() % n));
        try (TestDriver driver =
                new TestDriver(builder.build(), TestDriverConfig.defaults().withPartitions("out", 3))) {
            TestInputTopic<String, String> in = driver.input("words", Serdes.String(), Serdes.String());
            in.pipe("k", "a");
            in.pipe("k", "bb");
            in.pipe("k", "ccc");
            List<Integer> partitions = driver.output("out", Serdes.String(), Serdes.String()).readAll().stream()
                    .map(OutputRecord::partition)
                    .toList();
            assertEquals(List.of(1, 2, 0), partitions);
        }
    }

    @Test
    void aPartitionOutOfRangeFailsAsUserCode() {
        StreamsBuilder builder = new StreamsBuilder();
        words(builder).to("out", Produced.with(Serdes.String(), Serdes.String()).withPartitioner((t, k, v, n) -> n));
        try (TestDriver driver = new TestDriver(builder.build())) {
            ProcessingError e = assertThrows(
                    ProcessingError.class,
                    () -> driver.input("words", Serdes.String(), Serdes.String())
                            .pipe("k", "v"));
            assertTrue(e.getCause().getMessage().contains("partition 1 of topic 'out'"), e.getMessage());
            assertEquals("sink:out", e.operator());
        }
    }

    @Test
    void groupByRepartitionsByTheSelectedKey() {
        StreamsBuilder builder = new StreamsBuilder();
        words(builder)
                .groupBy(
                        (k, v) -> v.substring(0, 1),
                        Grouped.with(Serdes.String(), Serdes.String()).withName("by-initial"))
                .windowedBy(TumblingWindows.of(Duration.ofSeconds(10)))
                .count(Materialized.as("initials"))
                .toStream()
                .to("counts", Produced.with(WindowedSerdes.string(), Serdes.Long()));
        Topology topology = builder.build();
        assertTrue(
                topology.describe().toString().contains("by-initial-select-key"),
                topology.describe().toString());
        try (TestDriver driver = new TestDriver(topology)) {
            TestInputTopic<String, String> in = driver.input("words", Serdes.String(), Serdes.String());
            in.pipe("1", "apple", 1_000);
            in.pipe("2", "avocado", 2_000);
            in.pipe("3", "banana", 3_000);
            driver.endOfInput();
            Map<String, Long> counts = new java.util.TreeMap<>();
            driver.output("counts", WindowedSerdes.string(), Serdes.Long())
                    .readAll()
                    .forEach(r -> counts.put(r.key().key(), r.value()));
            assertEquals(Map.of("a", 2L, "b", 1L), counts);
        }
    }

    /** Keeps "user|item" keys; on value "?" emits the items of the record's user, found with a prefix scan. */
    static final class Baskets implements KeyedProcessor<String, String, String, String> {
        @Override
        public void process(String user, String item, KeyedProcessorContext<String, String, String> ctx) {
            KeyValueStore<String, String> store = ctx.store("baskets");
            if (!item.equals("?")) {
                store.put(user + "|" + item, item);
                return;
            }
            List<String> items = new ArrayList<>();
            store.prefixScan(user + "|", Serdes.String().serializer(), (k, v) -> items.add(v));
            List<String> ranged = new ArrayList<>();
            store.range(user + "|b", user + "|d", (k, v) -> ranged.add(v));
            ctx.forward(user, String.join(",", items) + " / " + String.join(",", ranged));
        }
    }

    @Test
    void aNamedKeyedProcessorNamesItsTimersAndItsStoresScanByRangeAndPrefix() {
        StreamsBuilder builder = new StreamsBuilder();
        words(builder)
                .groupByKey()
                .process(
                        Baskets::new,
                        Named.as("baskets-op"),
                        Materialized.<String, String>as("baskets")
                                .withKeySerde(Serdes.String())
                                .withValueSerde(Serdes.String()))
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        Topology topology = builder.build();
        assertTrue(
                topology.describe().toString().contains("baskets-op-timers"),
                topology.describe().toString());
        try (TestDriver driver = new TestDriver(topology)) {
            TestInputTopic<String, String> in = driver.input("words", Serdes.String(), Serdes.String());
            for (String item : List.of("d", "a", "c", "b")) {
                in.pipe("u1", item);
            }
            in.pipe("u10", "z");
            in.pipe("u1", "?");
            assertEquals(
                    List.of(KeyValue.pair("u1", "a,b,c,d / b,c")),
                    driver.output("out", Serdes.String(), Serdes.String()).readAll().stream()
                            .map(r -> KeyValue.pair(r.key(), r.value()))
                            .toList());
        }
    }

    @Test
    void aNamedOperatorCarriesItsNameIntoTheTopologyAndItsErrors() {
        StreamsBuilder builder = new StreamsBuilder();
        words(builder)
                .mapValues(Integer::parseInt, Named.as("parse-count"))
                .filter((k, v) -> v > 0, Named.as("positive"))
                .to("out", Produced.with(Serdes.String(), Serdes.Integer()));
        Topology topology = builder.build();
        TopologyDescription.SubTopology sub =
                topology.describe().subTopologies().get(0);
        assertEquals(
                List.of("source:words"), sub.node("parse-count").orElseThrow().predecessors(), topology.toString());
        assertEquals(List.of("parse-count"), sub.node("positive").orElseThrow().predecessors(), topology.toString());
        try (TestDriver driver = new TestDriver(topology)) {
            ProcessingError e = assertThrows(
                    ProcessingError.class,
                    () -> driver.input("words", Serdes.String(), Serdes.String())
                            .pipe("k", "many"));
            assertEquals("parse-count", e.operator());
        }
        StreamsBuilder twice = new StreamsBuilder();
        EventStream<String, String> w = words(twice);
        w.peek((k, v) -> {}, Named.as("same"));
        IllegalArgumentException dup =
                assertThrows(IllegalArgumentException.class, () -> w.peek((k, v) -> {}, Named.as("same")));
        assertTrue(dup.getMessage().contains("'same' is used twice"), dup.getMessage());
    }

    @Test
    void repartitionWithAPartitionCountRunsWhatFollowsInThatManyTasks() {
        StreamsBuilder builder = new StreamsBuilder();
        words(builder)
                .repartition(Repartitioned.<String, String>as("spread").withNumberOfPartitions(3))
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofSeconds(10)))
                .count(Materialized.as("spread-counts"))
                .toStream()
                .to("counts", Produced.with(WindowedSerdes.string(), Serdes.Long()));
        try (TestDriver driver = new TestDriver(builder.build())) {
            assertEquals(4, driver.watermarks().size(), "one task reads 'words', three read the repartition topic");
            TestInputTopic<String, String> in = driver.input("words", Serdes.String(), Serdes.String());
            for (String key : List.of("a", "b", "c", "d", "a")) {
                in.pipe(key, "x", 1_000);
            }
            driver.endOfInput();
            Map<String, Long> counts = new java.util.TreeMap<>();
            driver.output("counts", WindowedSerdes.string(), Serdes.Long())
                    .readAll()
                    .forEach(r -> counts.put(r.key().key(), r.value()));
            assertEquals(Map.of("a", 2L, "b", 1L, "c", 1L, "d", 1L), counts);
        }
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Repartitioned.<String, String>as("x").withNumberOfPartitions(0));
        assertTrue(e.getMessage().contains("numberOfPartitions"), e.getMessage());
    }

    @Test
    void aGroupingWithAPartitionCountAggregatesInThatManyTasks() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.table("regions", Consumed.with(Serdes.String(), Serdes.String()))
                .groupBy(
                        (user, region) -> KeyValue.pair(region, user),
                        Grouped.with(Serdes.String(), Serdes.String()).withNumberOfPartitions(3))
                .count(Materialized.as("users-per-region"));
        try (TestDriver driver = new TestDriver(builder.build())) {
            assertEquals(4, driver.watermarks().size(), "one task reads 'regions', three aggregate the groups");
            TestInputTopic<String, String> in = driver.input("regions", Serdes.String(), Serdes.String());
            in.pipe("ann", "eu", 1_000);
            in.pipe("bob", "eu", 1_000);
            in.pipe("cid", "us", 1_000);
            driver.commit();
            driver.commit();
            assertEquals(Map.of("eu", 2L, "us", 1L), driver.table("users-per-region"));
        }
        StreamsBuilder keyKept = new StreamsBuilder();
        EventStream<String, String> words = words(keyKept);
        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> words.groupByKey(Grouped.<String, String>with(null, null).withNumberOfPartitions(3)));
        assertTrue(e.getMessage().contains(".withNumberOfPartitions(n))"), e.getMessage());
        EventStream<String, String> rekeyed = words(new StreamsBuilder()).selectKey((k, v) -> v);
        rekeyed.groupByKey(Grouped.with(Serdes.String(), Serdes.String()).withNumberOfPartitions(2));
        assertThrows(
                IllegalArgumentException.class,
                () -> Grouped.<String, String>with(null, null).withNumberOfPartitions(0));
    }

    @Test
    void aTopicReadTwiceFeedsBothReadsFromOneConsumption() {
        StreamsBuilder builder = new StreamsBuilder();
        words(builder).mapValues(String::toUpperCase).to("upper", Produced.with(Serdes.String(), Serdes.String()));
        builder.stream("words", Consumed.with(Serdes.String(), Serdes.ByteArray()))
                .mapValues(bytes -> bytes.length)
                .to("lengths", Produced.with(Serdes.String(), Serdes.Integer()));
        Topology topology = builder.build();
        assertTrue(
                topology.describe().toString().contains("source:words-2"),
                topology.describe().toString());
        try (TestDriver driver = new TestDriver(topology)) {
            TestInputTopic<String, String> in = driver.input("words", Serdes.String(), Serdes.String());
            in.pipe("a", "hello");
            in.pipe("b", "hi");
            assertEquals(
                    List.of("HELLO", "HI"),
                    driver.output("upper", Serdes.String(), Serdes.String()).readValues());
            assertEquals(
                    List.of(5, 2),
                    driver.output("lengths", Serdes.String(), Serdes.Integer()).readValues());
            assertEquals(1, driver.watermarks().size(), "both reads run in the same task");
        }
        StreamsBuilder mismatched = new StreamsBuilder();
        words(mismatched);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> mismatched.stream(
                        "words",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(Duration.ofSeconds(5)))));
        assertTrue(e.getMessage().contains("different watermark strategies"), e.getMessage());
    }

    /** A String serde that records how it was configured. */
    static final class RecordingSerde extends org.apache.kafka.common.serialization.Serdes.WrapperSerde<String> {
        final List<String> configured = new ArrayList<>();

        RecordingSerde() {
            super(new StringSerializer(), new StringDeserializer());
        }

        @Override
        public void configure(Map<String, ?> configs, boolean isKey) {
            configured.add(configs + (isKey ? " key" : " value"));
        }
    }

    @Test
    void serdeSettingsConfigureEverySerdeOnceInItsRole() {
        RecordingSerde keys = new RecordingSerde();
        RecordingSerde values = new RecordingSerde();
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("words", Consumed.with(keys, values)).to("out", Produced.with(keys, values));
        Topology topology = builder.build();
        new TestDriver(topology, TestDriverConfig.defaults().withSerdeConfig(Map.of("schema.registry.url", "mock://x")))
                .close();
        assertEquals(List.of("{schema.registry.url=mock://x} key"), keys.configured);
        assertEquals(List.of("{schema.registry.url=mock://x} value"), values.configured);
        new TestDriver(topology).close();
        assertEquals(1, keys.configured.size(), "without serde settings, serdes are used as given");
    }

    @Test
    void aPatternSourceReadsEveryMatchingTopicInOneTask() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(Pattern.compile("orders-[a-z]+"), Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues(String::toUpperCase)
                .to("all-orders", Produced.with(Serdes.String(), Serdes.String()));
        Topology topology = builder.build();
        assertTrue(
                topology.describe().toString().contains("reads topics matching /orders-[a-z]+/"),
                topology.describe().toString());
        try (TestDriver driver = new TestDriver(
                topology, TestDriverConfig.defaults().withTopics("orders-eu", "orders-us", "orders-1", "other"))) {
            driver.input("orders-eu", Serdes.String(), Serdes.String()).pipe("a", "croissant", 1_000);
            driver.input("orders-us", Serdes.String(), Serdes.String()).pipe("b", "bagel", 2_000);
            assertEquals(
                    List.of("CROISSANT", "BAGEL"),
                    driver.output("all-orders", Serdes.String(), Serdes.String())
                            .readValues());
            assertEquals(1, driver.watermarks().size(), "both topics in one task");
            assertThrows(
                    IllegalArgumentException.class, () -> driver.input("orders-1", Serdes.String(), Serdes.String()));
        }
        IllegalStateException none = assertThrows(IllegalStateException.class, () -> new TestDriver(topology));
        assertTrue(
                none.getMessage().contains("No topic matches the source pattern /orders-[a-z]+/"), none.getMessage());
    }
}
