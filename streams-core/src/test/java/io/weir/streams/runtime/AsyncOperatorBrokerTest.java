package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Async;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(p + "in", "k" + (i % 7), Integer.toString(i)));
            }
        }
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
}
