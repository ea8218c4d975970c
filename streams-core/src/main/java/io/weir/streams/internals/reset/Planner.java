package io.weir.streams.internals.reset;

import io.weir.streams.internals.processor.InternalTopics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds what a reset will do, reading the cluster and the local disk and changing nothing: the group's
 * members (a reset of a live application is refused), its committed offsets, the application's internal
 * topics ({@code <application.id>-...-changelog} and {@code ...-repartition}; never a topic of another
 * application whose id starts with {@code <application.id>-}), the input partitions' first and end
 * offsets, and the local state directory's lock and entries.
 */
public final class Planner {

    private Planner() {}

    /**
     * The plan of {@code request}.
     *
     * @param stateLocked whether the caller holds the state directory's lock (the reset itself)
     */
    public static Plan plan(Admin admin, ResetRequest request, boolean stateLocked) {
        KafkaCalls kafka = new KafkaCalls(admin, request.timeout());
        String app = request.applicationId();
        List<String> notes = new ArrayList<>();
        List<String> refusals = new ArrayList<>();

        ConsumerGroupDescription group = kafka.describeGroup(app);
        List<String> members =
                group.members().stream().map(Planner::describe).sorted().toList();
        boolean removeMembers = !members.isEmpty() && request.force();
        if (!members.isEmpty() && !request.force()) {
            refusals.add("the consumer group '" + app + "' has " + members.size() + " member(s) (" + group.groupState()
                    + "): " + String.join("; ", members) + ". Stop every instance of the application first. An "
                    + "instance closed without leaving the group (static membership, Weir's default) stays a member "
                    + "until its session times out (consumer session.timeout.ms): wait for that, or, once you are "
                    + "sure no instance runs, pass --force to remove the members");
        }

        Map<TopicPartition, OffsetAndMetadata> committed = kafka.committedOffsets(app);
        Set<String> existing = kafka.topics();

        // Internal topics: named so, and not another application's whose id extends this one's.
        List<String> otherApps = kafka.consumerGroups().stream()
                .filter(g -> g.startsWith(app + "-"))
                .sorted()
                .toList();
        List<String> topicsToDelete = new ArrayList<>();
        for (String topic : new TreeSet<>(existing)) {
            if (!InternalTopics.isInternal(app, topic)) {
                continue;
            }
            String owner = otherApps.stream()
                    .filter(other -> InternalTopics.isInternal(other, topic))
                    .findFirst()
                    .orElse(null);
            if (owner != null) {
                notes.add("kept " + topic + ": it may be an internal topic of application '" + owner
                        + "' (a consumer group of that name exists); delete it by hand if it is this one's");
            } else {
                topicsToDelete.add(topic);
            }
        }
        Set<String> deleted = Set.copyOf(topicsToDelete);
        List<TopicPartition> internalOffsets = committed.keySet().stream()
                .filter(tp -> deleted.contains(tp.topic()))
                .sorted(Comparator.comparing(TopicPartition::toString))
                .toList();

        // Input and intermediate topics.
        Set<String> intermediate = new LinkedHashSet<>(request.intermediateTopics());
        Set<String> committedTopics = new TreeSet<>();
        committed.keySet().forEach(tp -> committedTopics.add(tp.topic()));
        List<String> inputs;
        if (request.inputTopics() != null) {
            inputs = request.inputTopics().stream().distinct().sorted().toList();
            List<String> untouched = committedTopics.stream()
                    .filter(t -> !inputs.contains(t) && !intermediate.contains(t) && !InternalTopics.isInternal(app, t))
                    .toList();
            if (!untouched.isEmpty()) {
                notes.add("the group also has offsets on " + String.join(", ", untouched)
                        + ", not among the input topics: they stay as they are");
            }
        } else {
            inputs = committedTopics.stream()
                    .filter(t -> !intermediate.contains(t) && !InternalTopics.isInternal(app, t))
                    .toList();
            notes.add(
                    inputs.isEmpty()
                            ? "the group has committed no offsets on input topics and none were named (--input-topics): "
                                    + "no offsets are reset"
                            : "input topics taken from the group's committed offsets: " + String.join(", ", inputs)
                                    + " (name them with --input-topics to choose)");
        }
        for (String topic : inputs) {
            if (intermediate.contains(topic)) {
                refusals.add("topic " + topic + " is named both an input and an intermediate topic");
            }
        }
        for (String topic : concat(inputs, intermediate)) {
            if (InternalTopics.isInternal(app, topic) && deleted.contains(topic)) {
                refusals.add("topic " + topic + " is an internal topic of the application: the reset deletes it, "
                        + "it cannot also reset its offsets");
            } else if (!existing.contains(topic)) {
                refusals.add("topic " + topic + " does not exist");
            }
        }
        List<String> present = concat(inputs, intermediate).stream()
                .filter(existing::contains)
                .filter(t -> !deleted.contains(t))
                .toList();
        Map<String, TopicDescription> described = kafka.describeTopics(present);
        List<TopicPartition> inputPartitions = partitions(inputs, described);
        List<TopicPartition> intermediatePartitions = partitions(List.copyOf(intermediate), described);
        for (TopicPartition tp : request.partitionOffsets().keySet()) {
            if (!inputPartitions.contains(tp)) {
                refusals.add("--offset " + tp.topic() + ":" + tp.partition() + "="
                        + request.partitionOffsets().get(tp) + " names "
                        + (described.containsKey(tp.topic()) ? "a partition that does not exist" : "no input topic"));
            }
        }

        List<TopicPartition> all = concat(inputPartitions, intermediatePartitions);
        Map<TopicPartition, Long> earliest = kafka.offsets(all, OffsetSpec.earliest());
        Map<TopicPartition, Long> latest = kafka.offsets(all, OffsetSpec.latest());
        Map<TopicPartition, Long> atTime = request.position() instanceof Position.AtTime at
                ? kafka.offsets(
                        inputPartitions, OffsetSpec.forTimestamp(at.time().toEpochMilli()))
                : Map.of();

        List<PartitionMove> inputMoves = new ArrayList<>();
        for (TopicPartition tp : inputPartitions) {
            long first = earliest.getOrDefault(tp, 0L);
            long end = latest.getOrDefault(tp, 0L);
            Long asked = request.partitionOffsets().get(tp);
            PartitionMove move;
            if (asked != null) {
                move = clamped(tp, committed, asked, first, end, "asked for this partition");
            } else {
                Long from = committedOffset(committed, tp);
                Position position = request.position();
                if (position instanceof Position.AtOffset o) {
                    move = clamped(tp, committed, o.offset(), first, end, "asked");
                } else if (position instanceof Position.AtTime t) {
                    long found = atTime.getOrDefault(tp, -1L);
                    move = found < 0
                            ? new PartitionMove(tp, from, end, "no record at or after " + t.time() + ": the end")
                            : new PartitionMove(tp, from, found, null);
                } else if (position instanceof Position.Latest) {
                    move = new PartitionMove(tp, from, end, null);
                } else {
                    move = new PartitionMove(tp, from, first, null);
                }
            }
            inputMoves.add(move);
        }
        List<PartitionMove> intermediateMoves = intermediatePartitions.stream()
                .map(tp -> new PartitionMove(tp, committedOffset(committed, tp), latest.getOrDefault(tp, 0L), null))
                .toList();

        Path directory = request.applicationStateDir();
        List<String> stateEntries = List.of();
        if (directory != null) {
            LocalState.Inspection inspection = LocalState.inspect(directory);
            stateEntries = inspection.entries();
            if (!stateLocked && inspection.holder() != null) {
                refusals.add(LocalState.inUseMessage(directory, inspection.holder()));
            }
        }

        return new Plan(
                app,
                String.valueOf(group.groupState()),
                members,
                removeMembers,
                topicsToDelete,
                internalOffsets,
                request.position(),
                inputMoves,
                intermediateMoves,
                directory,
                stateEntries,
                notes,
                refusals);
    }

    private static PartitionMove clamped(
            TopicPartition tp,
            Map<TopicPartition, OffsetAndMetadata> committed,
            long asked,
            long first,
            long end,
            String how) {
        Long from = committedOffset(committed, tp);
        if (asked < first) {
            return new PartitionMove(
                    tp, from, first, "offset " + asked + " " + how + " is before the partition's first");
        }
        if (asked > end) {
            return new PartitionMove(tp, from, end, "offset " + asked + " " + how + " is past the partition's end");
        }
        return new PartitionMove(tp, from, asked, null);
    }

    private static @Nullable Long committedOffset(Map<TopicPartition, OffsetAndMetadata> committed, TopicPartition tp) {
        OffsetAndMetadata o = committed.get(tp);
        return o == null ? null : o.offset();
    }

    private static List<TopicPartition> partitions(Collection<String> topics, Map<String, TopicDescription> described) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : topics) {
            TopicDescription d = described.get(topic);
            if (d != null) {
                d.partitions().forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            }
        }
        partitions.sort(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
        return partitions;
    }

    private static <T> List<T> concat(Collection<T> a, Collection<T> b) {
        List<T> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** A member for a person: its static id (or member id), client id and host. */
    private static String describe(MemberDescription m) {
        return m.groupInstanceId().map(id -> "static member " + id).orElse("member " + m.consumerId()) + " (client "
                + m.clientId() + " at " + m.host() + ")";
    }
}
