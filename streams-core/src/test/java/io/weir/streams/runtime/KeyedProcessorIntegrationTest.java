package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.KeyValueStore;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import io.weir.streams.time.TimeDomain;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A keyed processor on a real broker: its store and its event-time timers are state, committed with
 * its output, and restored on another instance, where the timers fire.
 */
@ExtendWith(KafkaBrokerExtension.class)
class KeyedProcessorIntegrationTest {

    private static final int PARTITIONS = 2;
    private static final int KEYS = 10;

    /** Emits each key's first value; an event-time timer 5 s later emits "expired". */
    static final class FirstValue implements KeyedProcessor<String, String, String, String> {
        @Override
        public void process(String key, String value, KeyedProcessorContext<String, String, String> ctx) {
            KeyValueStore<String, String> first = ctx.store("first");
            if (first.get(key) == null) {
                first.put(key, value);
                ctx.forward(key, value);
                ctx.registerTimer(TimeDomain.EVENT_TIME, ctx.eventTime() + 5_000);
            }
        }

        @Override
        public void onTimer(long time, TimeDomain domain, KeyedProcessorContext<String, String, String> ctx) {
            ctx.forward(ctx.currentKey(), "expired");
        }
    }

    private static Topology topology() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "kp-in",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey()
                .process(
                        FirstValue::new,
                        Materialized.<String, String>as("first")
                                .withKeySerde(Serdes.String())
                                .withValueSerde(Serdes.String()))
                .to("kp-out", Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    @Test
    void storesAndTimersMoveToAnotherInstanceAndTheTimersFireThere(
            KafkaBroker broker, @TempDir Path first, @TempDir Path second) {
        broker.createTopic("kp-in", PARTITIONS);
        broker.createTopic("kp-out", PARTITIONS);
        long base = BaseTime.recentPast();
        List<String> firsts =
                IntStream.range(0, KEYS).mapToObj(i -> "k" + i + "=v1").toList();
        try (KafkaProducer<String, String> producer = producer(broker)) {
            for (int i = 0; i < KEYS; i++) {
                producer.send(new ProducerRecord<>("kp-in", null, base + i, "k" + i, "v1"));
            }
            producer.flush();
            try (WeirStreams a = new WeirStreams(topology(), WindowedCountApp.config(broker, "kp", first))) {
                a.start();
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertEquals(firsts, sorted(read(broker))));
                a.close(Duration.ofSeconds(30));
            }
            // Second values (the restored store must hold the first ones) and, on every partition, a
            // record that moves the watermark past every timer.
            for (int i = 0; i < KEYS; i++) {
                producer.send(new ProducerRecord<>("kp-in", null, base + 100 + i, "k" + i, "v2"));
            }
            for (int p = 0; p < PARTITIONS; p++) {
                producer.send(new ProducerRecord<>("kp-in", p, base + 60_000, "zz-flush-" + p, "flush"));
            }
            producer.flush();
        }
        List<String> expected = new ArrayList<>(firsts);
        IntStream.range(0, KEYS).forEach(i -> expected.add("k" + i + "=expired"));
        IntStream.range(0, PARTITIONS).forEach(p -> expected.add("zz-flush-" + p + "=flush"));
        try (WeirStreams b = new WeirStreams(topology(), WindowedCountApp.config(broker, "kp", second))) {
            b.start();
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertEquals(sorted(expected), sorted(read(broker))));
            assertEquals(KEYS, b.metrics().get("process-1/timers-fired"), "each restored timer fired once, here");
        }
    }

    private static List<String> sorted(List<String> lines) {
        return lines.stream().sorted().toList();
    }

    private static KafkaProducer<String, String> producer(KafkaBroker broker) {
        return new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer());
    }

    /** The output as a read_committed consumer sees it, to its end: {@code key=value} lines. */
    private static List<String> read(KafkaBroker broker) {
        List<String> lines = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers(),
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed"),
                new StringDeserializer(),
                new StringDeserializer())) {
            var partitions = consumer.partitionsFor("kp-out").stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    lines.add(r.key() + "=" + r.value());
                }
            }
        }
        return lines;
    }
}
