package io.weir.benchmarks.nexmark;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The ceiling of q0 (pass-through) for any library on Kafka's clients: one thread consuming the bids with
 * {@code read_committed} and producing each record's bytes unchanged to the output, in a transaction that
 * commits the consumed offsets every commit interval, as an exactly-once application does. No
 * deserialization, no operators, no state: what is left is the clients' and the broker's cost, which Weir and
 * Kafka Streams both pay on top of their own.
 *
 * <p>Thread-safe to start and close from another thread; the loop runs on a thread of its own.
 */
public final class PassThroughCeiling implements AutoCloseable {

    /** The only query it computes. */
    public static final String QUERY = "q0";

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final KafkaProducer<byte[], byte[]> producer;
    private final String input;
    private final String output;
    private final long commitMs;
    private final Thread loop;
    private volatile boolean running = true;
    private volatile boolean assigned;
    private volatile @Nullable Throwable failure;

    PassThroughCeiling(String bootstrap, String applicationId, String input, String output, long commitMs) {
        this.input = input;
        this.output = output;
        this.commitMs = commitMs;
        consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.GROUP_ID_CONFIG,
                        applicationId,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false,
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                        1000),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                        applicationId + "-ceiling",
                        ProducerConfig.LINGER_MS_CONFIG,
                        5),
                new ByteArraySerializer(),
                new ByteArraySerializer());
        loop = new Thread(this::run, applicationId + "-ceiling");
    }

    void start() {
        loop.start();
    }

    /** Whether it has its partitions and runs. */
    boolean running() {
        return assigned && running && failure == null;
    }

    boolean failed() {
        return failure != null;
    }

    private void run() {
        try {
            producer.initTransactions();
            consumer.subscribe(List.of(input));
            boolean open = false;
            long lastCommit = System.nanoTime();
            while (running) {
                ConsumerRecords<byte[], byte[]> polled = consumer.poll(Duration.ofMillis(20));
                assigned = assigned || !consumer.assignment().isEmpty();
                if (!polled.isEmpty() && !open) {
                    producer.beginTransaction();
                    open = true;
                }
                for (ConsumerRecord<byte[], byte[]> r : polled) {
                    // A failed send fails the commit that follows, as in an exactly-once application.
                    var unused = producer.send(new ProducerRecord<>(output, null, r.timestamp(), r.key(), r.value()));
                }
                if (open && System.nanoTime() - lastCommit >= commitMs * 1_000_000) {
                    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                    for (TopicPartition p : consumer.assignment()) {
                        offsets.put(p, new OffsetAndMetadata(consumer.position(p)));
                    }
                    producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                    producer.commitTransaction();
                    open = false;
                    lastCommit = System.nanoTime();
                }
            }
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            loop.join(Duration.ofSeconds(30).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(10));
        consumer.close();
    }
}
