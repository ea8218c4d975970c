package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.ThreadStall;
import io.weir.streams.WeirMetrics;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.dsl.Produced;
import io.weir.streams.errors.ProcessingErrorHandler;
import io.weir.streams.errors.StreamsUncaughtExceptionHandler;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import io.weir.streams.time.TimeDomain;
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
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

import static io.weir.streams.runtime.TopicReader.keys;
import static io.weir.streams.runtime.TopicReader.read;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Exactly-once stays live: a poll's records that take longer than the transaction may live are committed
 * in parts, a thread that cannot commit is reported as stalled (not plain RUNNING), and {@code
 * REPLACE_THREAD} gives up on a failure that no replacement survives, whatever its kind.
 */
@ExtendWith(KafkaBrokerExtension.class)
class LivenessIntegrationTest {

    private static void produce(KafkaBroker broker, String topic, int count) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, String.format("k%04d", i), "v"));
            }
        }
    }

    private static long metric(WeirStreams app, String name) {
        return app.allMetrics().stream()
                .filter(m -> m.name().equals(name))
                .mapToLong(m -> (long) m.value())
                .sum();
    }

    /** {@code in -> mapValues(slow) -> out}, exactly-once with a transaction timeout of {@code timeoutMs}. */
    private static WeirStreams slow(KafkaBroker broker, Path dir, String p, long timeoutMs, Slow call) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(p + "in", Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues(v -> {
                    call.await();
                    return v;
                })
                .to(p + "out", Produced.with(Serdes.String(), Serdes.String()));
        Map<String, Object> config = WindowedCountApp.config(broker, p + "app", dir);
        config.put("producer.transaction.timeout.ms", (int) timeoutMs);
        return new WeirStreams(builder.build(), config);
    }

    /** A remote call's latency, stood in for by the calling thread waiting: the workload, not a synchronization. */
    @FunctionalInterface
    private interface Slow {
        void await();
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aPollThatOutlastsTheTransactionTimeoutIsCommittedInPartsExactlyOnce(KafkaBroker broker, @TempDir Path dir) {
        String p = "liveness-batch-";
        broker.createTopic(p + "in", 1);
        broker.createTopic(p + "out", 1);
        int records = 200;
        produce(broker, p + "in", records);
        // 200 records at 20 ms: 4 s in one poll, twice the 2 s the transaction may live.
        try (WeirStreams app = slow(broker, dir, p, 2_000, () -> pause(20))) {
            app.start();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> read(broker, p + "out", "read_committed").size() >= records);
            List<String> keys = keys(read(broker, p + "out", "read_committed"));
            assertEquals(records, new TreeSet<>(keys).size(), "every record");
            assertEquals(records, keys.size(), "once");
            assertTrue(metric(app, WeirMetrics.BATCH_COMMITS) >= 1, "commits within the poll's records");
            assertEquals(0, metric(app, WeirMetrics.TASK_LOSSES), "no transaction timed out");
            assertTrue(app.stalls().isEmpty(), app.stalls().toString());
        }
    }

    @Test
    void aRecordSlowerThanTheTransactionTimeoutIsAStallNotPlainRunning(KafkaBroker broker, @TempDir Path dir) {
        String p = "liveness-stall-";
        broker.createTopic(p + "in", 1);
        broker.createTopic(p + "out", 1);
        produce(broker, p + "in", 3);
        AtomicInteger calls = new AtomicInteger();
        // The second call takes 4 s, twice the transaction timeout, in the transaction the first record's output
        // opened: the broker aborts it under the call.
        try (WeirStreams app = slow(broker, dir, p, 2_000, () -> pause(calls.getAndIncrement() == 1 ? 4_000 : 0))) {
            app.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> !app.stalls().isEmpty());
            ThreadStall stall = app.stalls().get(0);
            assertTrue(stall.reason().contains("could not commit"), stall.reason());
            assertEquals(WeirStreams.State.RUNNING, app.state(), "alive, but reported stalled");
            assertEquals(1, metric(app, WeirMetrics.STALLED_THREADS));
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> read(broker, p + "out", "read_committed").size() >= 3);
            assertEquals(3, read(broker, p + "out", "read_committed").size(), "each record once");
            assertTrue(metric(app, WeirMetrics.TASK_LOSSES) >= 1, "the timed-out transaction cost the tasks once");
            await().atMost(Duration.ofSeconds(10)).until(() -> app.stalls().isEmpty());
        }
    }

    @Test
    void replaceThreadGivesUpOnAFailureThatNamesNoRecordAfterThreeReplacements(KafkaBroker broker, @TempDir Path dir) {
        String p = "liveness-replace-";
        broker.createTopic(p + "in", 1);
        produce(broker, p + "in", 1);
        StreamsBuilder builder = new StreamsBuilder().setProcessingErrorHandler(ProcessingErrorHandler.fail());
        // A processing-time timer that always throws: a failure outside any record, met again by every thread.
        builder.stream(p + "in", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .process(() -> new KeyedProcessor<String, String, String, String>() {
                    @Override
                    public void process(String key, String value, KeyedProcessorContext<String, String, String> ctx) {
                        ctx.registerTimer(TimeDomain.PROCESSING_TIME, ctx.processingTime());
                    }

                    @Override
                    public void onTimer(
                            long time, TimeDomain domain, KeyedProcessorContext<String, String, String> ctx) {
                        throw new IllegalStateException("the timer's remote call failed");
                    }
                })
                .to(p + "out", Produced.with(Serdes.String(), Serdes.String()));
        AtomicInteger failures = new AtomicInteger();
        try (WeirStreams app = new WeirStreams(builder.build(), WindowedCountApp.config(broker, p + "app", dir))) {
            app.setUncaughtExceptionHandler(e -> {
                failures.incrementAndGet();
                return StreamsUncaughtExceptionHandler.Response.REPLACE_THREAD;
            });
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == WeirStreams.State.ERROR);
            assertEquals(4, failures.get(), "three replacements, then the instance failed");
            assertEquals(3, metric(app, WeirMetrics.THREAD_REPLACEMENTS));
        }
    }
}
