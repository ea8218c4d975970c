package io.weir.streams.internals.runtime;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
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
 * How many records a restore of a changelog partition from nothing reads: its committed end offset
 * ({@code read_committed}) minus its first offset. The group leader asks, to tell whether an instance
 * without a copy of a task is caught up anyway (the task's state is small). Uses, does not own, its admin
 * client.
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
     * The records of each partition in {@code changelogs}; empty (nothing known) if the brokers do not
     * answer within the timeout, so that placement falls back to the copies members report.
     */
    Map<TopicPartition, Long> of(Collection<TopicPartition> changelogs) {
        if (changelogs.isEmpty()) {
            return Map.of();
        }
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        changelogs.forEach(tp -> {
            earliest.put(tp, OffsetSpec.earliest());
            latest.put(tp, OffsetSpec.latest());
        });
        ListOffsetsOptions committed = new ListOffsetsOptions(IsolationLevel.READ_COMMITTED);
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> starts =
                    admin.listOffsets(earliest, committed).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(latest, committed)
                    .all()
                    .get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            Map<TopicPartition, Long> records = new HashMap<>();
            ends.forEach((tp, end) -> {
                ListOffsetsResult.ListOffsetsResultInfo start = starts.get(tp);
                records.put(tp, Math.max(0, end.offset() - (start == null ? 0 : start.offset())));
            });
            return records;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        } catch (ExecutionException | TimeoutException e) {
            log.warn(
                    "The changelogs' sizes could not be read ({}); tasks go only to instances with a caught-up copy",
                    e.toString());
            return Map.of();
        }
    }
}
