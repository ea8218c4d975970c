package io.weir.streams.internals.runtime;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What the brokers say of changelog partitions, as a rebalance needs it, {@code read_committed}: how many
 * records a restore from nothing reads (the group leader asks, to tell whether an instance without a copy
 * of a task is caught up anyway: the task's state is small), and where each ends (a member asks, to tell
 * how far behind its state on disk is). Each lookup waits at most the timeout; if the brokers do not
 * answer, it knows nothing and says so in the log. Uses, does not own, its admin client.
 */
final class ChangelogSizes {

    private static final Logger log = LoggerFactory.getLogger(ChangelogSizes.class);

    private final Admin admin;
    private final Duration timeout;

    ChangelogSizes(Admin admin, Duration timeout) {
        this.admin = admin;
        this.timeout = timeout;
    }

    /**
     * The records of each partition in {@code changelogs}: its committed end minus its first offset;
     * empty if not known, so that placement falls back to the copies members report.
     */
    Map<TopicPartition, Long> of(Collection<TopicPartition> changelogs) {
        if (changelogs.isEmpty()) {
            return Map.of();
        }
        String consequence = "tasks go only to instances with a caught-up copy";
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<TopicPartition, Long> starts = offsets(changelogs, OffsetSpec.earliest(), deadline, consequence);
        if (starts == null) {
            return Map.of();
        }
        Map<TopicPartition, Long> ends = offsets(changelogs, OffsetSpec.latest(), deadline, consequence);
        if (ends == null) {
            return Map.of();
        }
        Map<TopicPartition, Long> records = new HashMap<>();
        ends.forEach((tp, end) -> records.put(tp, Math.max(0, end - starts.getOrDefault(tp, 0L))));
        return records;
    }

    /** The committed end of each partition in {@code changelogs}; empty if not known. */
    Map<TopicPartition, Long> ends(Collection<TopicPartition> changelogs) {
        if (changelogs.isEmpty()) {
            return Map.of();
        }
        Map<TopicPartition, Long> ends = offsets(
                changelogs,
                OffsetSpec.latest(),
                System.nanoTime() + timeout.toNanos(),
                "this instance's state on disk is not reported to the group leader, which places its tasks "
                        + "as if it were not there");
        return ends == null ? Map.of() : ends;
    }

    /** The {@code spec} offset of each partition, read before {@code deadline}; null (logged) if not. */
    private @Nullable Map<TopicPartition, Long> offsets(
            Collection<TopicPartition> changelogs, OffsetSpec spec, long deadline, String consequence) {
        Map<TopicPartition, OffsetSpec> asked = new HashMap<>();
        changelogs.forEach(tp -> asked.put(tp, spec));
        try {
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> answers = admin.listOffsets(
                            asked, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                    .all()
                    .get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            Map<TopicPartition, Long> offsets = new HashMap<>();
            answers.forEach((tp, info) -> offsets.put(tp, info.offset()));
            return offsets;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException | TimeoutException e) {
            log.warn("The changelogs' offsets could not be read ({}); {}", e.toString(), consequence);
            return null;
        }
    }
}
