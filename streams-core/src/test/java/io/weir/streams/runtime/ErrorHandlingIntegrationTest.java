package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirMetrics;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.Produced;
import io.weir.streams.errors.DeadLetterRecord;
import io.weir.streams.errors.ProductionErrorHandler;
import io.weir.streams.errors.RecordErrorHandler;
import io.weir.streams.serde.JsonSerde;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static io.weir.streams.runtime.TopicReader.header;
import static io.weir.streams.runtime.TopicReader.keys;
import static io.weir.streams.runtime.TopicReader.read;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad records on a real broker: unreadable input goes to a dead-letter topic, and a record too large
 * for its output topic's {@code max.message.bytes} is skipped by one sink and dead-lettered by
 * another, while every other output of the same transactions commits: {@code read_committed} sees
 * each outcome exactly once, and {@code read_uncommitted} sees nothing more (no transaction aborted).
 */
@ExtendWith(KafkaBrokerExtension.class)
class ErrorHandlingIntegrationTest {

    record Order(String id, int size) {}

    private static final int PARTITIONS = 2;
    private static final int RECORDS = 60;
    /** Far below the broker's default: an order of {@link #BIG} characters does not fit. */
    private static final String MAX_MESSAGE_BYTES = "2000";

    private static final int BIG = 5_000;

    private static boolean poison(int i) {
        return i % 10 == 3;
    }

    private static boolean big(int i) {
        return !poison(i) && i % 7 == 5;
    }

    @ParameterizedTest
    @ValueSource(strings = {StreamsConfig.EXACTLY_ONCE, StreamsConfig.AT_LEAST_ONCE})
    void poisonRecordsAndOversizedOutputsGetTheirOutcomeOnceAndTheRestCommits(
            String guarantee, KafkaBroker broker, @TempDir Path dir) {
        String p = "errors-" + guarantee.replace('_', '-') + "-";
        String in = p + "in";
        String skipping = p + "out-skipping";
        String deadLettering = p + "out-dead-lettering";
        String dlq = p + "dlq";
        broker.createTopic(in, PARTITIONS);
        broker.createTopic(skipping, PARTITIONS, Map.of("max.message.bytes", MAX_MESSAGE_BYTES));
        broker.createTopic(deadLettering, PARTITIONS, Map.of("max.message.bytes", MAX_MESSAGE_BYTES));
        broker.createTopic(dlq, 1);

        TreeSet<String> good = new TreeSet<>();
        TreeSet<String> poisoned = new TreeSet<>();
        TreeSet<String> oversized = new TreeSet<>();
        long base = BaseTime.recentPast();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                String key = "o" + i;
                String value =
                        poison(i) ? "{not json" : "{\"id\":\"" + key + "\",\"size\":" + (big(i) ? BIG : 10 + i) + "}";
                producer.send(new ProducerRecord<>(in, null, base + i, key, value));
                (poison(i) ? poisoned : big(i) ? oversized : good).add(key);
            }
        }

        StreamsBuilder builder = new StreamsBuilder();
        EventStream<String, String> padded = builder.stream(
                        in,
                        Consumed.with(Serdes.String(), JsonSerde.of(Order.class))
                                .withErrorHandler(RecordErrorHandler.deadLetterTo(dlq)))
                .mapValues(o -> "x".repeat(o.size()));
        padded.to(
                skipping,
                Produced.with(Serdes.String(), Serdes.String())
                        .withErrorHandler(ProductionErrorHandler.logAndContinue()));
        padded.to(
                deadLettering,
                Produced.with(Serdes.String(), Serdes.String())
                        .withErrorHandler(ProductionErrorHandler.deadLetterTo(dlq)));
        Map<String, Object> config = new HashMap<>();
        config.put(StreamsConfig.APPLICATION_ID, p + "app");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers());
        config.put(StreamsConfig.STATE_DIR, dir.toString());
        config.put(StreamsConfig.PROCESSING_GUARANTEE, guarantee);
        config.put(StreamsConfig.COMMIT_INTERVAL_MS, 200);

        try (WeirStreams app = new WeirStreams(builder.build(), config)) {
            app.start();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertEquals(List.copyOf(good), keys(read(broker, skipping, "read_committed")));
                assertEquals(List.copyOf(good), keys(read(broker, deadLettering, "read_committed")));
                assertEquals(
                        poisoned.size() + oversized.size(),
                        read(broker, dlq, "read_committed").size());
            });
            assertTrue(app.error().isEmpty());
            assertEquals(WeirStreams.State.RUNNING, app.state());

            List<ConsumerRecord<String, String>> letters = read(broker, dlq, "read_committed");
            Map<String, String> reasons = new HashMap<>();
            for (ConsumerRecord<String, String> letter : letters) {
                String before = reasons.put(letter.key(), header(letter, DeadLetterRecord.REASON_HEADER));
                assertNull(before, "one dead letter for " + letter.key());
                assertEquals(in, header(letter, DeadLetterRecord.SOURCE_TOPIC_HEADER));
                if (oversized.contains(letter.key())) {
                    assertEquals(deadLettering, header(letter, DeadLetterRecord.SINK_TOPIC_HEADER));
                    assertEquals(
                            "{\"id\":\"" + letter.key() + "\",\"size\":" + BIG + "}",
                            letter.value(),
                            "the input record");
                } else {
                    assertEquals("{not json", letter.value());
                }
            }
            Map<String, String> expected = new HashMap<>();
            poisoned.forEach(k -> expected.put(k, "VALUE_DESERIALIZATION"));
            oversized.forEach(k -> expected.put(k, "RECORD_TOO_LARGE"));
            assertEquals(expected, reasons);

            for (String topic : List.of(skipping, deadLettering, dlq)) {
                assertEquals(
                        read(broker, topic, "read_committed").size(),
                        read(broker, topic, "read_uncommitted").size(),
                        "nothing written to " + topic + " was aborted");
            }
            Map<String, Long> metrics = app.metrics();
            assertEquals(poisoned.size(), metrics.get("source:" + in + "/" + WeirMetrics.RECORDS_DEAD_LETTERED));
            assertEquals(
                    oversized.size(), metrics.get("sink:" + skipping + "/" + WeirMetrics.RECORDS_PRODUCTION_SKIPPED));
            assertEquals(
                    oversized.size(), metrics.get("sink:" + deadLettering + "/" + WeirMetrics.RECORDS_DEAD_LETTERED));
        }
    }
}
