package io.weir.streams.internals.runtime;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Set;

/**
 * A stream thread's producer, the record collector that sends through it, and, under exactly-once, its
 * transaction: begun by the first send after a commit, committed with the consumed offsets, aborted
 * when the tasks' uncommitted work is dropped. A producer whose transactions were fenced is of no
 * more use: {@link #replace} closes it and makes a new one under the same transactional id.
 *
 * <p>Used by its stream thread only; owns the producer.
 */
final class ThreadProducer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ThreadProducer.class);

    private final String threadName;
    private final Map<String, Object> config;
    private final boolean exactlyOnce;
    private final TopicLimitsReader topicLimits;
    /** The changelog topics the thread's commits write, whose last offsets the collector keeps. */
    private final Set<String> changelogTopics;

    private KafkaProducer<byte[], byte[]> producer;
    private KafkaRecordCollector collector;
    private boolean transactionOpen;
    private long transactionStartNanos;
    /**
     * Whether the producer's transactions are initialized. The thread joins the group first and
     * initializes them when it takes its first tasks, before any task restores or reads a committed
     * offset: joining early lets a restarted static member rejoin before its old session expires (no
     * rebalance), and the fencing still comes before anything the zombie it fences may have written is
     * read.
     */
    private boolean transactionsInitialized;

    ThreadProducer(
            String threadName,
            Map<String, Object> config,
            boolean exactlyOnce,
            TopicLimitsReader topicLimits,
            Set<String> changelogTopics) {
        this.threadName = threadName;
        this.config = config;
        this.exactlyOnce = exactlyOnce;
        this.topicLimits = topicLimits;
        this.changelogTopics = changelogTopics;
        create();
    }

    /** A fresh producer and collector, its transactions not yet initialized. */
    private void create() {
        producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
        collector = new KafkaRecordCollector(producer, this::begin, topicLimits, changelogTopics);
        transactionOpen = false;
    }

    /** The collector the tasks send through; a new one comes with a new producer. */
    KafkaRecordCollector collector() {
        return collector;
    }

    boolean transactionsInitialized() {
        return transactionsInitialized;
    }

    /**
     * Under exactly-once, registers the producer's transactional id (fencing an older producer with it,
     * and aborting the transaction it left open). Called on the stream thread: a refusal (a missing ACL)
     * then fails the thread like any other error.
     */
    void initTransactions() {
        if (exactlyOnce) {
            long began = System.nanoTime();
            producer.initTransactions();
            log.info(
                    "Thread {} initialized its transactions in {} ms",
                    threadName,
                    (System.nanoTime() - began) / 1_000_000);
        }
        transactionsInitialized = true;
    }

    /** Under exactly-once, opens a transaction unless one is open. */
    void begin() {
        if (exactlyOnce && !transactionOpen) {
            producer.beginTransaction();
            transactionOpen = true;
            transactionStartNanos = System.nanoTime();
        }
    }

    boolean transactionOpen() {
        return transactionOpen;
    }

    /** When the open transaction began ({@link System#nanoTime}); meaningful while one is open. */
    long transactionStartNanos() {
        return transactionStartNanos;
    }

    /** How long the open transaction has lived, in ms; -1 when none is open. */
    long transactionAgeMs() {
        return transactionOpen ? (System.nanoTime() - transactionStartNanos) / 1_000_000 : -1;
    }

    /**
     * Exactly-once: commits the transaction (opened if the tasks sent nothing) with the consumed
     * {@code offsets}, then throws the first failed send, if any.
     */
    void commitTransaction(Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata group) {
        begin();
        if (!offsets.isEmpty()) {
            producer.sendOffsetsToTransaction(offsets, group);
        }
        producer.commitTransaction();
        transactionOpen = false;
        collector.checkForErrors();
    }

    /** At-least-once: waits for every send, then throws the first that failed, if any. */
    void flush() {
        producer.flush();
        collector.checkForErrors();
    }

    /** Aborts the open transaction, if any; a failure to abort is logged: the transaction is dropped anyway. */
    void abortTransaction() {
        if (transactionOpen) {
            try {
                producer.abortTransaction();
            } catch (RuntimeException e) {
                log.warn("Aborting the open transaction failed", e);
            }
            transactionOpen = false;
        }
    }

    /** After this thread's transactions were fenced: a new producer and collector, transactions initialized. */
    void replace() {
        try {
            producer.close();
        } catch (RuntimeException e) {
            log.warn("Closing {} failed", producer.getClass().getSimpleName(), e);
        }
        create();
        initTransactions();
    }

    @Override
    public void close() {
        producer.close();
    }
}
