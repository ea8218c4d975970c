package io.weir.streams.internals.reset;

import io.weir.streams.internals.Causes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The reset's requests to Kafka, each waited for at most the reset's timeout; a failure names what was
 * being done.
 */
final class KafkaCalls {

    private final Admin admin;
    private final Duration timeout;

    KafkaCalls(Admin admin, Duration timeout) {
        this.admin = admin;
        this.timeout = timeout;
    }

    ConsumerGroupDescription describeGroup(String group) {
        KafkaFuture<ConsumerGroupDescription> described =
                admin.describeConsumerGroups(List.of(group)).describedGroups().get(group);
        return get(Objects.requireNonNull(described, "a result for the group asked"), "describe group " + group);
    }

    Map<TopicPartition, OffsetAndMetadata> committedOffsets(String group) {
        Map<TopicPartition, OffsetAndMetadata> read = get(
                admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata(),
                "read the committed offsets of group " + group);
        Map<TopicPartition, OffsetAndMetadata> present = new HashMap<>();
        read.forEach((tp, o) -> {
            if (o != null) {
                present.put(tp, o);
            }
        });
        return present;
    }

    Set<String> topics() {
        return get(admin.listTopics().names(), "list the topics");
    }

    /** The ids of the cluster's consumer groups. */
    List<String> consumerGroups() {
        return get(admin.listGroups(ListGroupsOptions.forConsumerGroups()).all(), "list the consumer groups").stream()
                .map(GroupListing::groupId)
                .toList();
    }

    Map<String, TopicDescription> describeTopics(Collection<String> topics) {
        if (topics.isEmpty()) {
            return Map.of();
        }
        return get(admin.describeTopics(topics).allTopicNames(), "describe the topics " + topics);
    }

    Map<TopicPartition, Long> offsets(Collection<TopicPartition> partitions, OffsetSpec spec) {
        if (partitions.isEmpty()) {
            return Map.of();
        }
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(tp -> request.put(tp, spec));
        Map<TopicPartition, ListOffsetsResultInfo> found =
                get(admin.listOffsets(request).all(), "read the offsets of " + partitions);
        Map<TopicPartition, Long> offsets = new HashMap<>();
        found.forEach((tp, info) -> offsets.put(tp, info.offset()));
        return offsets;
    }

    /** Removes every member of the group (KIP-571: static members by their instance id). */
    void removeAllMembers(String group) {
        RemoveMembersFromConsumerGroupOptions options = new RemoveMembersFromConsumerGroupOptions();
        options.reason("weir-reset --force");
        get(admin.removeMembersFromConsumerGroup(group, options).all(), "remove the members of group " + group);
    }

    void commitOffsets(String group, Map<TopicPartition, Long> offsets) {
        if (offsets.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        offsets.forEach((tp, offset) -> commit.put(tp, new OffsetAndMetadata(offset)));
        get(admin.alterConsumerGroupOffsets(group, commit).all(), "commit the new offsets of group " + group);
    }

    void deleteOffsets(String group, Set<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        get(
                admin.deleteConsumerGroupOffsets(group, partitions).all(),
                "delete the offsets of group " + group + " on " + partitions);
    }

    /** Deletes the topics (one already gone is fine) and waits until the cluster no longer lists them. */
    void deleteTopics(Collection<String> topics) {
        if (topics.isEmpty()) {
            return;
        }
        Map<String, KafkaFuture<Void>> results = admin.deleteTopics(topics).topicNameValues();
        for (Map.Entry<String, KafkaFuture<Void>> e : results.entrySet()) {
            try {
                get(e.getValue(), "delete topic " + e.getKey());
            } catch (ResetFailedException x) {
                if (!(x.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw x;
                }
            }
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Set<String> left = new java.util.TreeSet<>(topics);
            left.retainAll(topics());
            if (left.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new ResetFailedException(
                        "The cluster still lists the deleted topics " + left + " after " + timeout.toSeconds()
                                + " s; wait until it does not before starting the application",
                        null);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                throw new ResetFailedException("Interrupted while waiting for the topics' deletion", x);
            }
        }
    }

    private <T> T get(KafkaFuture<T> future, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = Causes.of(e);
            throw new ResetFailedException("Cannot " + what + ": " + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new ResetFailedException("Cannot " + what + ": no answer within " + timeout.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ResetFailedException("Interrupted while trying to " + what, e);
        }
    }
}
