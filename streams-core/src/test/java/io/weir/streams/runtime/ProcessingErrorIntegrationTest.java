package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirMetrics;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Produced;
import io.weir.streams.errors.DeadLetterRecord;
import io.weir.streams.errors.ProcessingError;
import io.weir.streams.errors.ProcessingErrorHandler;
import io.weir.streams.errors.StreamsUncaughtExceptionHandler;
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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

import static io.weir.streams.runtime.TopicReader.header;
import static io.weir.streams.runtime.TopicReader.keys;
import static io.weir.streams.runtime.TopicReader.read;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * User code that throws, on a real broker under exactly-once: a dead-lettered record commits with the
 * transaction (once in the dead-letter topic, never in the output, nothing aborted), and with the default
 * fail decision a thread replaced by {@code REPLACE_THREAD} does not loop on the poison record.
 */
@ExtendWith(KafkaBrokerExtension.class)
class ProcessingErrorIntegrationTest {

    private static final int RECORDS = 40;

    private static boolean poison(int i) {
        return i % 9 == 4;
    }

    /** Writes {@link #RECORDS} numbers to {@code topic}, the poison ones as words; returns the good keys. */
    private static Set<String> produce(KafkaBroker broker, String topic, Set<String> poisoned) {
        Set<String> good = new TreeSet<>();
        long base = BaseTime.recentPast();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                String key = "n" + i;
                producer.send(
                        new ProducerRecord<>(topic, null, base + i, key, poison(i) ? "four" : Integer.toString(i)));
                (poison(i) ? poisoned : good).add(key);
            }
        }
        return good;
    }

    private static WeirStreams app(KafkaBroker broker, Path dir, String p, ProcessingErrorHandler handler) {
        StreamsBuilder builder = new StreamsBuilder().setProcessingErrorHandler(handler);
        builder.stream(p + "in", Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues(Long::parseLong)
                .mapValues(n -> Long.toString(n * 2))
                .to(p + "out", Produced.with(Serdes.String(), Serdes.String()));
        Map<String, Object> config = WindowedCountApp.config(broker, p + "app", dir);
        config.put(StreamsConfig.COMMIT_INTERVAL_MS, 200);
        return new WeirStreams(builder.build(), config);
    }

    @Test
    void aDeadLetteredRecordCommitsWithTheTransactionOnce(KafkaBroker broker, @TempDir Path dir) {
        String p = "processing-dlq-";
        broker.createTopic(p + "in", 2);
        broker.createTopic(p + "out", 2);
        broker.createTopic(p + "dlq", 1);
        Set<String> poisoned = new TreeSet<>();
        Set<String> good = produce(broker, p + "in", poisoned);

        try (WeirStreams app = app(broker, dir, p, ProcessingErrorHandler.deadLetterTo(p + "dlq"))) {
            app.start();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertEquals(List.copyOf(good), keys(read(broker, p + "out", "read_committed")));
                assertEquals(List.copyOf(poisoned), keys(read(broker, p + "dlq", "read_committed")));
            });
            for (ConsumerRecord<String, String> letter : read(broker, p + "dlq", "read_committed")) {
                assertEquals("four", letter.value(), "the input record as consumed");
                assertEquals(DeadLetterRecord.PROCESSING_REASON, header(letter, DeadLetterRecord.REASON_HEADER));
                assertTrue(header(letter, DeadLetterRecord.OPERATOR_HEADER).startsWith("map-values-"));
                assertEquals(NumberFormatException.class.getName(), header(letter, DeadLetterRecord.EXCEPTION_HEADER));
            }
            for (String topic : List.of(p + "out", p + "dlq")) {
                assertEquals(
                        read(broker, topic, "read_committed").size(),
                        read(broker, topic, "read_uncommitted").size(),
                        "nothing written to " + topic + " was aborted");
            }
            assertEquals(WeirStreams.State.RUNNING, app.state());
            assertEquals(
                    poisoned.size(),
                    app.metrics().entrySet().stream()
                            .filter(e -> e.getKey().endsWith("/" + WeirMetrics.RECORDS_DEAD_LETTERED))
                            .mapToLong(Map.Entry::getValue)
                            .sum());
        }
    }

    @Test
    void replaceThreadDoesNotLoopOnAPoisonRecord(KafkaBroker broker, @TempDir Path dir) {
        String p = "processing-poison-";
        broker.createTopic(p + "in", 1);
        broker.createTopic(p + "out", 1);
        produce(broker, p + "in", new TreeSet<>());
        AtomicInteger failures = new AtomicInteger();

        try (WeirStreams app = app(broker, dir, p, ProcessingErrorHandler.fail())) {
            app.setUncaughtExceptionHandler(e -> {
                failures.incrementAndGet();
                return StreamsUncaughtExceptionHandler.Response.REPLACE_THREAD;
            });
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == WeirStreams.State.ERROR);
            ProcessingError error =
                    assertInstanceOf(ProcessingError.class, app.error().orElseThrow());
            assertEquals(p + "in", error.sourceTopic().orElseThrow());
            assertEquals(4, error.sourceOffset(), "the first poison record");
            assertTrue(error.operator().startsWith("map-values-"), error.operator());
            assertEquals(2, failures.get(), "replaced once, then the same record failed the instance");
            List<String> committed = keys(read(broker, p + "out", "read_committed"));
            assertTrue(
                    List.of("n0", "n1", "n2", "n3").containsAll(committed),
                    "nothing after the poison record committed: " + committed);
        }
    }
}
