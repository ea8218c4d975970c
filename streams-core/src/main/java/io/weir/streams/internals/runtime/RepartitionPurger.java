package io.weir.streams.internals.runtime;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Deletes repartition-topic records once their readers have committed past them, at most every
 * {@code repartition.purge.interval.ms}. Repartition topics keep records without a time limit
 * (their timestamps are event times, which time-based retention would judge by, deleting old events
 * unread), so this purge is what bounds them. Safe because only the task reading a repartition
 * partition commits offsets on it: a committed offset is never read again. The deletion runs in the
 * background; a failure is logged and the next purge covers it. Used by one thread; uses (does not
 * own) the admin client.
 */
final class RepartitionPurger {

    private static final Logger log = LoggerFactory.getLogger(RepartitionPurger.class);

    private final Admin admin;
    private final Set<String> repartitionTopics;
    private final long intervalMs;
    private final Map<TopicPartition, RecordsToDelete> pending = new HashMap<>();
    private long lastPurge;

    /** @param repartitionTopics the physical names of the repartition topics this thread may read */
    RepartitionPurger(Admin admin, Set<String> repartitionTopics, long intervalMs, long now) {
        this.admin = admin;
        this.repartitionTopics = Set.copyOf(repartitionTopics);
        this.intervalMs = intervalMs;
        this.lastPurge = now;
    }

    /** Notes offsets that were just committed (the transaction or commitSync succeeded). */
    void committed(Map<TopicPartition, OffsetAndMetadata> offsets) {
        offsets.forEach((tp, offset) -> {
            if (repartitionTopics.contains(tp.topic())) {
                pending.put(tp, RecordsToDelete.beforeOffset(offset.offset()));
            }
        });
    }

    /** Deletes what was committed past, if the interval has passed since the last purge. */
    void maybePurge(long now) {
        if (pending.isEmpty() || now - lastPurge < intervalMs) {
            return;
        }
        Map<TopicPartition, RecordsToDelete> batch = new HashMap<>(pending);
        pending.clear();
        lastPurge = now;
        // Fire and forget: the outcome is only logged, and a failed purge is retried at the next one.
        @SuppressWarnings("FutureReturnValueIgnored")
        var unused = admin.deleteRecords(batch).all().whenComplete((ignored, e) -> {
            if (e != null) {
                log.warn(
                        "Purging committed records from repartition topics {} failed; the next purge retries: {}{}",
                        batch.keySet(),
                        e.toString(),
                        AccessErrors.isAccessError(e)
                                ? " (its principal needs DELETE on the internal topics' prefix, see "
                                        + "docs/guides/security.md; until then these topics only grow)"
                                : "");
            } else {
                log.debug("Purged repartition topics up to {}", batch);
            }
        });
    }
}
