package io.weir.benchmarks.runtime;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads, through an admin client, how far consumer groups have committed and where topics end, so a
 * benchmark can tell when an app has processed and committed all of its input. Owns its client.
 */
final class GroupProgress implements AutoCloseable {

    private static final long POLL_INTERVAL_MS = 50;

    private final Admin admin;

    GroupProgress(String bootstrap) {
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    /** The end of every partition of {@code topic} as a {@code read_committed} consumer sees it. */
    Map<TopicPartition, Long> committedEnd(String topic, int partitions) {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            request.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        Map<TopicPartition, Long> ends = new HashMap<>();
        get(admin.listOffsets(request, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                        .all())
                .forEach((tp, info) -> ends.put(tp, info.offset()));
        return ends;
    }

    /** Whether {@code group} has committed every offset in {@code ends} (or beyond). */
    boolean reached(String group, Map<TopicPartition, Long> ends) {
        Map<TopicPartition, OffsetAndMetadata> committed =
                get(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
        return ends.entrySet().stream().allMatch(e -> {
            OffsetAndMetadata c = committed.get(e.getKey());
            return c != null && c.offset() >= e.getValue();
        });
    }

    /**
     * Whether {@code group} is stable and has processed and committed everything in the partitions its
     * members are assigned: of each partition of {@code inputs} (written without transactions) its end,
     * and of each other one (the application's repartition topics, written in its transactions, each
     * ending in a transaction marker) everything up to its last marker, with no transaction open on it.
     * False while the group rebalances or has no members.
     */
    boolean caughtUp(String group, Set<String> inputs) {
        @Nullable ConsumerGroupDescription description = describe(group);
        if (description == null
                || description.groupState() != GroupState.STABLE
                || description.members().isEmpty()) {
            return false;
        }
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        description
                .members()
                .forEach(m -> m.assignment().topicPartitions().forEach(tp -> latest.put(tp, OffsetSpec.latest())));
        Map<TopicPartition, Long> logEnds = new HashMap<>();
        get(admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED))
                        .all())
                .forEach((tp, info) -> logEnds.put(tp, info.offset()));
        Map<TopicPartition, Long> stableEnds = new HashMap<>();
        get(admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                        .all())
                .forEach((tp, info) -> stableEnds.put(tp, info.offset()));
        Map<TopicPartition, OffsetAndMetadata> committed =
                get(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
        return logEnds.entrySet().stream().allMatch(e -> {
            long end = e.getValue();
            if (end == 0) {
                return true;
            }
            OffsetAndMetadata c = committed.get(e.getKey());
            if (inputs.contains(e.getKey().topic())) {
                return c != null && c.offset() >= end;
            }
            // The last offset is the last transaction's marker, which a consumer need not commit past.
            return stableEnds.getOrDefault(e.getKey(), -1L) == end && c != null && c.offset() >= end - 1;
        });
    }

    /** The group's description, or null before its first member joined. */
    private @Nullable ConsumerGroupDescription describe(String group) {
        try {
            return get(admin.describeConsumerGroups(List.of(group)).all()).get(group);
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof ExecutionException ee && ee.getCause() instanceof GroupIdNotFoundException) {
                return null;
            }
            throw e;
        }
    }

    /**
     * Waits until {@code app}'s group has committed {@code ends}, checking every {@value #POLL_INTERVAL_MS} ms.
     *
     * @return {@link System#nanoTime()} when it was seen
     */
    long awaitCommitted(StreamingApp app, String group, Map<TopicPartition, Long> ends, Duration timeout)
            throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!reached(group, ends)) {
            app.checkHealthy();
            if (System.nanoTime() > deadline) {
                throw new TimeoutException(
                        group + " did not commit the end of its input " + ends + " within " + timeout);
            }
            Thread.sleep(POLL_INTERVAL_MS);
        }
        return System.nanoTime();
    }

    private static <T> T get(KafkaFuture<T> future) {
        try {
            return future.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("An admin request failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(10));
    }
}
