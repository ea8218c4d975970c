package io.weir.streams.internals.runtime;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Aborts the open transactions of members that left the group without closing (killed, or removed once
 * their session timed out), by starting a producer under each one's transactional id: the transaction
 * coordinator then aborts whatever that id had open, at once, and fences the member should it still be
 * alive (its next commit fails, and it rejoins). Without this, a dead member's transaction stays open until
 * {@code transaction.timeout.ms} and the broker's next check for timed-out transactions (up to 10 s later
 * by default), and everything {@code read_committed} waits for it: the new owner of the dead member's
 * tasks cannot even read their committed input offsets, so they stay paused up to 20 s past the session
 * timeout.
 *
 * <p>Used by the group leader while it assigns. Not thread-safe. Owns each producer it makes, for the
 * duration of one call.
 */
final class TransactionFencer {

    private static final Logger log = LoggerFactory.getLogger(TransactionFencer.class);

    private final Map<String, Object> producerConfig;
    private final Duration timeout;

    /**
     * @param producerConfig the settings of the application's producers (bootstrap, security)
     * @param timeout        how long to wait for each transaction to be aborted before giving up on it
     */
    TransactionFencer(Map<String, Object> producerConfig, Duration timeout) {
        this.producerConfig = new HashMap<>(producerConfig);
        this.timeout = timeout;
    }

    /** Aborts the open transaction, if any, of each of {@code transactionalIds}, and fences its producer. */
    void fence(Set<String> transactionalIds) {
        for (String id : transactionalIds) {
            Map<String, Object> config = new HashMap<>(producerConfig);
            config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, id);
            config.put(ProducerConfig.CLIENT_ID_CONFIG, id + "-fencer");
            config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) timeout.toMillis());
            try (KafkaProducer<byte[], byte[]> producer =
                    new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
                producer.initTransactions();
                log.info("Aborted the open transaction, if any, of {}, which left the group", id);
            } catch (KafkaException e) {
                log.warn(
                        "Could not abort the transactions of {}, which left the group ({}); read_committed readers "
                                + "wait until the broker times them out",
                        id,
                        e.toString());
            }
        }
    }
}
