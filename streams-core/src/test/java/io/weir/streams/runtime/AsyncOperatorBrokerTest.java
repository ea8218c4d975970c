package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Async;
import io.weir.streams.dsl.AsyncKeyedProcessor;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.KeyValueStore;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static io.weir.streams.runtime.TopicReader.read;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code mapValuesAsync} in the runtime: a service that answers each call after 1 to 20 ms on threads of its
 * own, so answers come out of order; a capacity of 8, far below the input, so the thread takes input only as
 * answers make room; exactly-once. The {@code read_committed} output holds every record once, and each key's
 * results in the order of its input.
 */
@ExtendWith(KafkaBrokerExtension.class)
class AsyncOperatorBrokerTest {

    @Test
    void everyResultIsCommittedOnceAndEachKeyInItsOrder(KafkaBroker broker, @TempDir Path dir) {
        String p = "async-broker-";
        broker.createTopic(p + "in", 2);
        broker.createTopic(p + "out", 2);
        int records = 600;
        produce(broker, p + "in", records);
        ScheduledExecutorService service = Executors.newScheduledThreadPool(2);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(p + "in", Consumed.with(Serdes.String(), Serdes.String()))
                .mapValuesAsync(
                        value -> {
                            CompletableFuture<String> answer = new CompletableFuture<>();
                            service.schedule(
                                    () -> answer.complete("scored-" + value),
                                    ThreadLocalRandom.current().nextInt(1, 21),
                                    TimeUnit.MILLISECONDS);
                            return answer;
                        },
                        Async.<String, String>as("score").withCapacity(8))
                .to(p + "out", Produced.with(Serdes.String(), Serdes.String()));
        Map<String, Object> config = WindowedCountApp.config(broker, p + "app", dir);
        config.put(StreamsConfig.COMMIT_INTERVAL_MS, 100);
        try (WeirStreams app = new WeirStreams(builder.build(), config)) {
            app.start();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> read(broker, p + "out", "read_committed").size() >= records);
            List<ConsumerRecord<String, String>> out = read(broker, p + "out", "read_committed");
            assertEquals(records, out.size(), "each result once");
            Map<String, List<Integer>> byKey = new HashMap<>();
            for (ConsumerRecord<String, String> r : out) {
                byKey.computeIfAbsent(r.key(), k -> new ArrayList<>())
                        .add(Integer.parseInt(r.value().substring("scored-".length())));
            }
            byKey.forEach((key, values) -> assertEquals(
                    values.stream().sorted().toList(), values, "the results of " + key + " in input order"));
        } finally {
            service.shutdownNow();
        }
    }

    /**
     * {@code processAsync} keeping a running sum of the answers per key, stopped midway and started again on
     * the same state directory: the restarted instance calls again for the records held at the last commit,
     * and the {@code read_committed} output holds each key's running sums once each, in input order.
     */
    @Test
    void processAsyncKeepsEachKeysStateInOrderAcrossARestart(KafkaBroker broker, @TempDir Path dir) {
        String p = "process-async-broker-";
        broker.createTopic(p + "in", 2);
        broker.createTopic(p + "out", 2);
        int records = 600;
        produce(broker, p + "in", records);
        ScheduledExecutorService service = Executors.newScheduledThreadPool(2);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(p + "in", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .<Long, String, String>processAsync(
                        () -> new AsyncKeyedProcessor<String, String, Long, String, String>() {
                            @Override
                            public CompletionStage<Long> call(String key, String value) {
                                CompletableFuture<Long> answer = new CompletableFuture<>();
                                service.schedule(
                                        () -> answer.complete(2L * Long.parseLong(value)),
                                        ThreadLocalRandom.current().nextInt(1, 21),
                                        TimeUnit.MILLISECONDS);
                                return answer;
                            }

                            @Override
                            public void process(
                                    String key,
                                    String value,
                                    @Nullable Long answer,
                                    KeyedProcessorContext<String, String, String> ctx) {
                                KeyValueStore<String, Long> sums = ctx.store("sums");
                                Long before = sums.get(key);
                                long sum = (before == null ? 0 : before) + Objects.requireNonNull(answer);
                                sums.put(key, sum);
                                ctx.forward(key, Long.toString(sum));
                            }
                        },
                        Async.<String, String>as("sum").withCapacity(8),
                        Materialized.<String, Long>as("sums")
                                .withKeySerde(Serdes.String())
                                .withValueSerde(Serdes.Long()))
                .to(p + "out", Produced.with(Serdes.String(), Serdes.String()));
        Map<String, Object> config = WindowedCountApp.config(broker, p + "app", dir);
        config.put(StreamsConfig.COMMIT_INTERVAL_MS, 100);
        try {
            try (WeirStreams app = new WeirStreams(builder.build(), config)) {
                app.start();
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> read(broker, p + "out", "read_committed").size() >= records / 4);
            }
            try (WeirStreams app = new WeirStreams(builder.build(), config)) {
                app.start();
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> read(broker, p + "out", "read_committed").size() >= records);
                Map<String, List<Long>> byKey = new TreeMap<>();
                for (ConsumerRecord<String, String> r : read(broker, p + "out", "read_committed")) {
                    byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(Long.parseLong(r.value()));
                }
                Map<String, List<Long>> expected = new TreeMap<>();
                Map<String, Long> sums = new HashMap<>();
                for (int i = 0; i < records; i++) {
                    String key = "k" + (i % 7);
                    long sum = sums.merge(key, 2L * i, Long::sum);
                    expected.computeIfAbsent(key, k -> new ArrayList<>()).add(sum);
                }
                assertEquals(expected, byKey, "each key's running sums, once each, in input order");
            }
        } finally {
            service.shutdownNow();
        }
    }

    /** Writes values 0 to {@code records - 1} to {@code topic}, under keys k0 to k6 in turn. */
    private static void produce(KafkaBroker broker, String topic, int records) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + (i % 7), Integer.toString(i)));
            }
        }
    }
}
