package io.weir.streams.test.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits until a new topic can take writes. The controller confirms a topic before the brokers lead its
 * partitions, and a producer that writes in between gets NOT_LEADER_OR_FOLLOWER retries; an idempotent
 * producer's later batches, appended meanwhile, then leave its retry out of sequence for good.
 * {@link KafkaBroker#createTopic} waits with this; a client writing to a topic that something else
 * created calls it itself.
 */
public final class TopicLeaders {

    private TopicLeaders() {}

    /**
     * Returns once the broker knows {@code topic} with {@code partitions} partitions and the leader of
     * each answers for it.
     *
     * @param admin the client to ask
     * @param topic the topic's name
     * @param partitions how many partitions the topic was created with
     * @param timeout how long to wait
     * @throws TimeoutException if some partition has no serving leader within {@code timeout}; its message
     *     says which
     * @throws ExecutionException if the broker refuses to describe the topic (other than not knowing it yet)
     * @throws InterruptedException if interrupted while waiting
     */
    public static void await(Admin admin, String topic, int partitions, Duration timeout)
            throws ExecutionException, InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long backoffMs = 10;
        while (true) {
            TopicDescription description = describe(admin, topic, remainingMs(deadline));
            if (description != null
                    && description.partitions().size() == partitions
                    && description.partitions().stream()
                            .allMatch(p -> p.leader() != null && !p.leader().isEmpty())
                    && leadersServe(admin, topic, partitions, remainingMs(deadline))) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("partitions of '" + topic + "' without a serving leader after "
                        + timeout.toMillis() + " ms: "
                        + (description == null ? "the topic is not known yet" : description.partitions()));
            }
            // The admin API has no call that waits for leadership: poll, backing off.
            Thread.sleep(backoffMs);
            backoffMs = Math.min(backoffMs * 2, 200);
        }
    }

    /**
     * Whether every partition's leader answers for it. The metadata names a leader before the broker's
     * replica manager has become it; listing offsets is served by that replica manager.
     */
    private static boolean leadersServe(Admin admin, String topic, int partitions, long timeoutMs)
            throws InterruptedException, TimeoutException {
        Map<TopicPartition, OffsetSpec> asked = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            asked.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        try {
            admin.listOffsets(asked).all().get(timeoutMs, TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException e) {
            return false;
        }
    }

    /** The topic's description, or null while the broker does not know the topic yet. */
    private static @Nullable TopicDescription describe(Admin admin, String topic, long timeoutMs)
            throws ExecutionException, InterruptedException, TimeoutException {
        try {
            return admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(timeoutMs, TimeUnit.MILLISECONDS)
                    .get(topic);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return null;
            }
            throw e;
        }
    }

    /** What is left until {@code deadline}, at least a millisecond so that each call is asked once. */
    private static long remainingMs(long deadline) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
    }
}
