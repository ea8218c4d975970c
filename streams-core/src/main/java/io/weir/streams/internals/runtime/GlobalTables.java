package io.weir.streams.internals.runtime;

import io.weir.streams.StreamsConfig;
import io.weir.streams.internals.Redaction;
import io.weir.streams.internals.TimeMath;
import io.weir.streams.internals.global.GlobalStore;
import io.weir.streams.internals.state.StoreOpener;
import io.weir.streams.internals.topology.GlobalTableSpec;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The instance's global tables: every partition of each one's topic, read by a consumer of their own
 * outside the group into a {@link GlobalStore} under {@code <state.dir>/<application.id>/global}.
 * {@link #bootstrap} reads every partition to the end offsets of that moment before any stream thread
 * starts, so no task processes a record before the global tables hold what their topics held then;
 * then a thread of its own, {@code <client>-global}, keeps them current. A store resumes at the offsets
 * it stored with its data. A failure of that thread (an unreadable record its handler fails on, a
 * lost broker beyond the consumer's retries) is passed to {@code onFailure}, which fails the instance.
 *
 * <p>Owns the consumer, the thread and the stores: {@link #close} stops and closes them.
 */
public final class GlobalTables implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GlobalTables.class);
    private static final Duration POLL = Duration.ofMillis(100);

    private final Map<String, GlobalStore<?, ?>> stores = new LinkedHashMap<>();
    private final Map<String, GlobalStore<?, ?>> byTopic = new LinkedHashMap<>();
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String threadName;
    private final Consumer<Throwable> onFailure;
    private volatile boolean closing;
    private @Nullable Thread thread;

    /** @param opener what opens the RocksDB stores (with the instance's shared RocksDB resources) */
    public GlobalTables(
            List<GlobalTableSpec> specs,
            StreamsConfig config,
            String clientId,
            StoreOpener opener,
            Consumer<Throwable> onFailure) {
        this.threadName = clientId + "-global";
        this.onFailure = onFailure;
        Path dir = config.stateDir().resolve(config.applicationId()).resolve("global");
        try {
            for (GlobalTableSpec spec : specs) {
                GlobalStore<?, ?> store = GlobalStore.open(spec, dir, opener);
                stores.put(spec.storeName(), store);
                byTopic.put(spec.topic(), store);
            }
            this.consumer = new KafkaConsumer<>(
                    ReaderConsumers.config(config, threadName + "-consumer"),
                    new ByteArrayDeserializer(),
                    new ByteArrayDeserializer());
        } catch (RuntimeException e) {
            stores.values().forEach(GlobalStore::close);
            throw e;
        }
    }

    /** The stores by name, for the tasks to read. */
    public Map<String, GlobalStore<?, ?>> stores() {
        return Collections.unmodifiableMap(stores);
    }

    /**
     * Reads every partition of the global topics, from where each store is, to the end offsets of now.
     *
     * @throws IllegalStateException if a global topic does not exist
     */
    public void bootstrap(BooleanSupplier stopping) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : byTopic.keySet()) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic);
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException("The topic '" + topic + "' of global table '"
                        + Objects.requireNonNull(byTopic.get(topic)).spec().storeName()
                        + "' does not exist: create it before starting");
            }
            infos.forEach(i -> partitions.add(new TopicPartition(topic, i.partition())));
        }
        consumer.assign(partitions);
        for (TopicPartition tp : partitions) {
            Long next = store(tp).nextOffset(tp.partition());
            if (next == null) {
                consumer.seekToBeginning(List.of(tp));
            } else {
                consumer.seek(tp, next);
            }
        }
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
        long started = System.nanoTime();
        long records = 0;
        while (!stopping.getAsBoolean() && !caughtUp(ends)) {
            records += pollOnce();
        }
        log.info(
                "Global tables {} bootstrapped: {} records in {} ms",
                stores.keySet(),
                records,
                (System.nanoTime() - started) / 1_000_000);
    }

    private boolean caughtUp(Map<TopicPartition, Long> ends) {
        for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** Polls once and applies what came, per partition; returns the number of records. */
    private int pollOnce() {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
        for (TopicPartition tp : records.partitions()) {
            List<GlobalStore.Raw> batch = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> r : records.records(tp)) {
                batch.add(
                        new GlobalStore.Raw(r.partition(), r.offset(), r.key(), r.value(), r.headers(), r.timestamp()));
            }
            store(tp).apply(tp.partition(), batch, consumer.position(tp));
        }
        return records.count();
    }

    private GlobalStore<?, ?> store(TopicPartition tp) {
        return Objects.requireNonNull(byTopic.get(tp.topic()), "only global topics are assigned");
    }

    /** Starts the thread that keeps the tables current. */
    public synchronized void start() {
        Thread t = new Thread(this::run, threadName);
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    private void run() {
        try {
            while (!closing) {
                pollOnce();
            }
        } catch (WakeupException e) {
            if (!closing) {
                onFailure.accept(e);
            }
        } catch (RuntimeException e) {
            if (!closing) {
                log.error("The global tables thread {} failed", threadName, Redaction.forLog(e));
                onFailure.accept(e);
            }
        }
    }

    /** Stops the thread and closes the consumer and the stores; waits at most {@code timeout} for the thread. */
    public void close(Duration timeout) {
        closing = true;
        Thread t;
        synchronized (this) {
            t = thread;
        }
        if (t != null) {
            consumer.wakeup();
            try {
                t.join(Math.max(1, TimeMath.millis(timeout)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (t != null && t.isAlive()) {
            // A consumer is closed by the thread that uses it last: leave both to the daemon thread's end.
            log.warn("The global tables thread {} did not stop within {}", threadName, timeout);
            return;
        }
        try {
            consumer.close(CloseOptions.timeout(timeout));
        } finally {
            stores.values().forEach(GlobalStore::close);
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }
}
