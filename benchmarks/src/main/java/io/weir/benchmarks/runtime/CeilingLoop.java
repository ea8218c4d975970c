package io.weir.benchmarks.runtime;

import io.weir.benchmarks.CountTopologies;
import io.weir.benchmarks.OutputTally.WindowKey;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.time.Window;
import io.weir.streams.time.Windowed;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The stateful ceiling: what one thread of plain Kafka clients does for the same counts with
 * exactly-once and nothing else. A {@code read_committed} consumer in the group {@code application.id}
 * and a transactional producer; a {@link HashMap} from (key, 1-minute window) to count. For each
 * record it adds one to its window's count and sends, in the open transaction, the new count to the
 * output topic and the same record to its changelog {@code <application.id>-counts-changelog}
 * (compacted, created at start, one partition per input partition). Every 100 ms it adds the consumed
 * offsets with {@code sendOffsetsToTransaction(offsets, groupMetadata)} and commits the transaction.
 *
 * <p>Output: one record per input record, key the window and key in Weir's {@code WindowedSerdes.string()}
 * format, value the window's count so far (a long). It never closes windows, judges nothing late,
 * keeps every window in the map, and does not restore its map on restart: the cost of the
 * exactly-once writes and of the counting alone, an upper bound for a stateful application.
 */
final class CeilingLoop implements StreamingApp {

    private static final Logger log = LoggerFactory.getLogger(CeilingLoop.class);
    private static final long COMMIT_INTERVAL_MS = 100;

    private final AppSetup setup;
    private final String changelog;
    private final KafkaConsumer<String, String> consumer;
    private final KafkaProducer<byte[], byte[]> producer;
    private final Serializer<Windowed<String>> keys = WindowedSerdes.string().serializer();
    private final Serializer<Long> counts = Serdes.Long().serializer();
    private final Map<WindowKey, Long> windows = new HashMap<>();
    private final Map<TopicPartition, OffsetAndMetadata> consumed = new HashMap<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean assigned;
    private volatile @Nullable Throwable error;

    CeilingLoop(AppSetup setup) {
        this.setup = setup;
        this.changelog = setup.applicationId() + "-" + CountTopologies.STORE + "-changelog";
        String bootstrap = setup.broker().bootstrapServers();
        consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.GROUP_ID_CONFIG,
                        setup.applicationId(),
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false,
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"),
                new StringDeserializer(),
                new StringDeserializer());
        producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                        setup.applicationId() + "-ceiling",
                        ProducerConfig.LINGER_MS_CONFIG,
                        5),
                new ByteArraySerializer(),
                new ByteArraySerializer());
        thread = new Thread(this::run, setup.applicationId() + "-ceiling-loop");
    }

    @Override
    public void start() {
        setup.broker().createTopic(changelog, setup.partitions(), Map.of("cleanup.policy", "compact"));
        thread.start();
    }

    private void run() {
        try {
            producer.initTransactions();
            consumer.subscribe(List.of(setup.input()), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    assigned = false;
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    assigned = !partitions.isEmpty();
                }
            });
            boolean transactionOpen = false;
            long lastCommit = System.currentTimeMillis();
            while (running) {
                for (ConsumerRecord<String, String> r : poll()) {
                    if (!transactionOpen) {
                        producer.beginTransaction();
                        transactionOpen = true;
                    }
                    process(r);
                }
                long now = System.currentTimeMillis();
                if (transactionOpen && now - lastCommit >= COMMIT_INTERVAL_MS) {
                    commit();
                    transactionOpen = false;
                    lastCommit = now;
                }
            }
            if (transactionOpen) {
                commit();
            }
        } catch (Throwable e) {
            error = e;
            log.error("The ceiling loop failed", e);
        } finally {
            consumer.close();
            producer.close();
        }
    }

    private Iterable<ConsumerRecord<String, String>> poll() {
        try {
            return consumer.poll(Duration.ofMillis(100));
        } catch (WakeupException e) {
            if (running) {
                throw e;
            }
            return List.of();
        }
    }

    private void process(ConsumerRecord<String, String> r) {
        long start = r.timestamp() - Math.floorMod(r.timestamp(), CountTopologies.WINDOW_MS);
        long count = windows.merge(new WindowKey(r.key(), start), 1L, Long::sum);
        byte[] key = keys.serialize(
                setup.output(), new Windowed<>(r.key(), new Window(start, start + CountTopologies.WINDOW_MS)));
        byte[] value = counts.serialize(setup.output(), count);
        // Committing the transaction checks both sends.
        @SuppressWarnings("FutureReturnValueIgnored")
        var unusedOutput = producer.send(new ProducerRecord<>(setup.output(), null, r.timestamp(), key, value));
        @SuppressWarnings("FutureReturnValueIgnored")
        var unusedChangelog = producer.send(new ProducerRecord<>(changelog, r.partition(), r.timestamp(), key, value));
        consumed.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
    }

    private void commit() {
        producer.sendOffsetsToTransaction(consumed, consumer.groupMetadata());
        producer.commitTransaction();
        consumed.clear();
    }

    @Override
    public boolean isRunning() {
        checkHealthy();
        return assigned;
    }

    @Override
    public void checkHealthy() {
        if (error != null) {
            throw new IllegalStateException("The ceiling loop failed: " + error, error);
        }
    }

    @Override
    public void close() {
        if (thread.getState() == Thread.State.NEW) {
            consumer.close();
            producer.close();
            return;
        }
        running = false;
        consumer.wakeup();
        try {
            thread.join(Duration.ofSeconds(60).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            throw new IllegalStateException("The ceiling loop did not stop within 60 s");
        }
        checkHealthy();
    }
}
