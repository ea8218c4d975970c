package io.weir.benchmarks.nexmark;

import io.weir.benchmarks.tables.DriverRuns;
import io.weir.streams.TopologyDescription;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * Runs a Nexmark query through each engine's test driver, without a broker: the events piped in the
 * order they were generated, each into its entity's topic at its event time, then the output read.
 * This checks what a query computes (the smoke test of every query), not how fast.
 */
public final class NexmarkDrivers {

    /** The topics the drivers read. */
    public static final NexmarkTopics TOPICS = NexmarkTopics.prefixed("");

    private static final String OUTPUT = "output";
    private static final Serde<Long> LONGS = Serdes.Long();
    private static final long WALL_CLOCK_STEP_MS = 100;

    /** How far processing time moves after the input: past the last processing-time window of q12. */
    private static final Duration END_OF_INPUT_WAIT = Duration.ofMillis(2 * ProcessingTimeWindows.WINDOW_MS);

    private NexmarkDrivers() {}

    /** Weir's results of {@code query} on {@code events}, with a commit at the end. */
    public static <K, V> Results weir(NexmarkQuery<K, V> query, List<Event> events, Duration outOfOrder) {
        Results results = new Results(query.shape());
        NexmarkSources sources = new NexmarkSources(TOPICS, outOfOrder);
        Path stateDir = DriverRuns.tempDir("nexmark-weir-");
        TestDriverConfig config = TestDriverConfig.defaults()
                .withStateDir(stateDir)
                .withStartTime(Instant.ofEpochMilli(events.get(0).dateTime()))
                .withKeepReadRecords(false);
        io.weir.streams.Topology topology = query.weirTopology(sources, OUTPUT);
        Set<String> read = new HashSet<>();
        for (TopologyDescription.SubTopology sub : topology.describe().subTopologies()) {
            for (TopologyDescription.Node node : sub.nodes()) {
                if (node instanceof TopologyDescription.Source source) {
                    read.add(source.topic());
                }
            }
        }
        try (TestDriver driver = new TestDriver(topology, config)) {
            TestInputTopic<Long, Person> persons = read.contains(TOPICS.persons())
                    ? driver.input(TOPICS.persons(), LONGS, NexmarkSerdes.person())
                    : null;
            TestInputTopic<Long, Auction> auctions = read.contains(TOPICS.auctions())
                    ? driver.input(TOPICS.auctions(), LONGS, NexmarkSerdes.auction())
                    : null;
            TestInputTopic<Long, Bid> bids =
                    read.contains(TOPICS.bids()) ? driver.input(TOPICS.bids(), LONGS, NexmarkSerdes.bid()) : null;
            TestOutputTopic<K, V> output = driver.output(OUTPUT, query.keySerde(), query.valueSerde());
            if (topology.describe().globalTables().stream()
                    .anyMatch(g -> g.topic().equals(TOPICS.sideInput()))) {
                TestInputTopic<Long, String> side = driver.input(TOPICS.sideInput(), LONGS, Serdes.String());
                for (long k = 0; k < SideInput.ROWS; k++) {
                    side.pipe(k, SideInput.value(k), events.get(0).dateTime());
                }
            }
            for (Event event : events) {
                if (event instanceof Person p && persons != null) {
                    persons.pipe(p.key(), p, p.dateTime());
                } else if (event instanceof Auction a && auctions != null) {
                    auctions.pipe(a.key(), a, a.dateTime());
                } else if (event instanceof Bid b && bids != null) {
                    bids.pipe(b.key(), b, b.dateTime());
                }
            }
            // Past the last processing-time window (q12), then a commit.
            driver.advanceTime(END_OF_INPUT_WAIT);
            driver.commit();
            for (OutputRecord<K, V> r : output.readAll()) {
                results.add(r.key(), r.value());
            }
        } finally {
            DriverRuns.delete(stateDir);
        }
        return results;
    }

    /** Kafka Streams' results of {@code query} on {@code events}, its wall clock moved along with event time. */
    public static <K, V> Results kafkaStreams(NexmarkQuery<K, V> query, List<Event> events, Duration outOfOrder) {
        Results results = new Results(query.shape());
        NexmarkSources sources = new NexmarkSources(TOPICS, outOfOrder);
        Path stateDir = DriverRuns.tempDir("nexmark-ks-");
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "nexmark-" + query.name());
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.putAll(io.weir.benchmarks.TableTopologies.optimized());
        org.apache.kafka.streams.Topology topology = query.kafkaStreamsTopology(sources, OUTPUT);
        Set<String> read = new HashSet<>();
        for (var sub : topology.describe().subtopologies()) {
            for (var node : sub.nodes()) {
                if (node instanceof org.apache.kafka.streams.TopologyDescription.Source source) {
                    read.addAll(source.topicSet());
                }
            }
        }
        try (TopologyTestDriver driver = new TopologyTestDriver(
                topology, props, Instant.ofEpochMilli(events.get(0).dateTime()))) {
            var persons = read.contains(TOPICS.persons())
                    ? driver.createInputTopic(
                            TOPICS.persons(),
                            LONGS.serializer(),
                            NexmarkSerdes.person().serializer())
                    : null;
            var auctions = read.contains(TOPICS.auctions())
                    ? driver.createInputTopic(
                            TOPICS.auctions(),
                            LONGS.serializer(),
                            NexmarkSerdes.auction().serializer())
                    : null;
            var bids = read.contains(TOPICS.bids())
                    ? driver.createInputTopic(
                            TOPICS.bids(),
                            LONGS.serializer(),
                            NexmarkSerdes.bid().serializer())
                    : null;
            var output = driver.createOutputTopic(
                    OUTPUT, query.keySerde().deserializer(), query.valueSerde().deserializer());
            if (topology.describe().globalStores().stream()
                    .anyMatch(g -> g.source().topicSet().contains(TOPICS.sideInput()))) {
                var side = driver.createInputTopic(
                        TOPICS.sideInput(), LONGS.serializer(), Serdes.String().serializer());
                for (long k = 0; k < SideInput.ROWS; k++) {
                    side.pipeInput(k, SideInput.value(k), events.get(0).dateTime());
                }
            }
            long wallClock = events.get(0).dateTime();
            for (Event event : events) {
                // Its wall clock follows event time, as in production: onWindowClose() looks for closed
                // windows at most once per second of it.
                if (event.dateTime() - wallClock >= WALL_CLOCK_STEP_MS) {
                    driver.advanceWallClockTime(Duration.ofMillis(event.dateTime() - wallClock));
                    wallClock = event.dateTime();
                }
                if (event instanceof Person p && persons != null) {
                    persons.pipeInput(p.key(), p, p.dateTime());
                } else if (event instanceof Auction a && auctions != null) {
                    auctions.pipeInput(a.key(), a, a.dateTime());
                } else if (event instanceof Bid b && bids != null) {
                    bids.pipeInput(b.key(), b, b.dateTime());
                }
            }
            driver.advanceWallClockTime(END_OF_INPUT_WAIT);
            output.readKeyValuesToList().forEach(kv -> results.add(kv.key, kv.value));
        } finally {
            DriverRuns.delete(stateDir);
        }
        return results;
    }
}
