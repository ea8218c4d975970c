package io.weir.streams.runtime;

import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.time.Windowed;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/** Reads a windowed-count output topic as a read_committed consumer would see it, to its end. */
final class CommittedPanes {

    /** The key of the records tests send to close every window. */
    static final String FLUSH_KEY = "zz-flush";

    private CommittedPanes() {}

    /** Every committed pane, by {@code key@windowStart}, in offset order; flush keys left out. */
    static Map<String, List<ConsumerRecord<Windowed<String>, Long>>> read(KafkaBroker broker, String topic) {
        Map<String, List<ConsumerRecord<Windowed<String>, Long>>> panes = new TreeMap<>();
        try (KafkaConsumer<Windowed<String>, Long> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers(),
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        5_000),
                WindowedSerdes.string().deserializer(),
                Serdes.Long().deserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<Windowed<String>, Long> r : consumer.poll(Duration.ofMillis(200))) {
                    if (!r.key().key().equals(FLUSH_KEY)) {
                        panes.computeIfAbsent(
                                        r.key().key() + "@" + r.key().window().start(), k -> new ArrayList<>())
                                .add(r);
                    }
                }
            }
        }
        return panes;
    }

    /** The last pane's value per {@code key@windowStart}. */
    static Map<String, Long> finalCounts(Map<String, List<ConsumerRecord<Windowed<String>, Long>>> panes) {
        Map<String, Long> out = new TreeMap<>();
        panes.forEach((k, list) -> out.put(k, list.get(list.size() - 1).value()));
        return out;
    }

    /** Exactly-once output of an on-time-only count: one ON_TIME pane per window, no repeat. */
    static void assertOneOnTimePaneEach(Map<String, List<ConsumerRecord<Windowed<String>, Long>>> panes) {
        panes.forEach((k, list) -> {
            assertEquals(1, list.size(), "exactly one pane for " + k + ": " + list);
            assertEquals(
                    PaneInfo.Timing.ON_TIME,
                    PaneInfo.from(list.get(0).headers()).orElseThrow().timing());
        });
    }

    /**
     * Fails unless the last pane of every window on {@code topic} holds the expected count, naming at
     * most the first 20 differences (a whole map of thousands of windows helps nobody).
     */
    static void assertFinalCounts(Map<String, Long> expected, KafkaBroker broker, String topic) {
        assertCounts(expected, finalCounts(read(broker, topic)), topic);
    }

    /** Fails unless {@code actual} equals {@code expected}, naming at most the first 20 differences. */
    static void assertCounts(Map<String, Long> expected, Map<String, Long> actual, String where) {
        if (actual.equals(expected)) {
            return;
        }
        Set<String> windows = new TreeSet<>(expected.keySet());
        windows.addAll(actual.keySet());
        List<String> differences = windows.stream()
                .filter(w -> !Objects.equals(expected.get(w), actual.get(w)))
                .map(w -> w + " expected " + expected.get(w) + " but was " + actual.get(w))
                .toList();
        fail(differences.size() + " of " + windows.size() + " windows differ on " + where + ", e.g. "
                + differences.subList(0, Math.min(20, differences.size())));
    }
}
