package io.weir.streams.internals.task;

import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.common.TopicPartition;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A task's watermark, computed exactly as DESIGN's event-time contract states:
 * {@code W(p) = maxSeenEventTime(p) - delay - 1} per input partition; a partition with no record for
 * {@code idleness} of processing time is idle and left out until its next record; the task's
 * watermark is the minimum over non-idle partitions, never moves back, and stays put while every
 * partition is idle. Single-threaded.
 */
public final class WatermarkTracker {

    private static final class PartitionTime {
        final long delay;
        final long idleness;
        long maxSeen = Long.MIN_VALUE;
        long lastActivity;
        boolean idle;

        PartitionTime(WatermarkStrategy strategy, long now) {
            this.delay = strategy.delay().toMillis();
            this.idleness = strategy.idleness().map(java.time.Duration::toMillis).orElse(-1L);
            this.lastActivity = now;
        }

        long watermark() {
            return maxSeen == Long.MIN_VALUE ? Long.MIN_VALUE : maxSeen - delay - 1;
        }
    }

    private final Map<TopicPartition, PartitionTime> partitions = new LinkedHashMap<>();
    private long watermark = Long.MIN_VALUE;

    /** Tracks {@code partition} from processing time {@code now} (idleness counts from here). */
    public void add(TopicPartition partition, WatermarkStrategy strategy, long now) {
        partitions.put(partition, new PartitionTime(strategy, now));
    }

    /** A record arrived on {@code partition}: it is active again, whatever its event time. */
    public void markActive(TopicPartition partition, long now) {
        PartitionTime p = partition(partition);
        p.lastActivity = Math.max(p.lastActivity, now);
        p.idle = false;
    }

    /** A valid event time was seen on {@code partition} (future-skewed and invalid ones are not reported). */
    public void observe(TopicPartition partition, long eventTime) {
        PartitionTime p = partition(partition);
        p.maxSeen = Math.max(p.maxSeen, eventTime);
    }

    /** Marks partitions idle whose idleness has elapsed by processing time {@code now}. */
    public void onProcessingTime(long now) {
        for (PartitionTime p : partitions.values()) {
            if (!p.idle && p.idleness >= 0 && now - p.lastActivity >= p.idleness) {
                p.idle = true;
            }
        }
    }

    /** Recomputes the task's watermark from its partitions and returns it (never less than before). */
    public long advance() {
        long min = Long.MAX_VALUE;
        boolean anyActive = false;
        for (PartitionTime p : partitions.values()) {
            if (!p.idle) {
                anyActive = true;
                min = Math.min(min, p.watermark());
            }
        }
        if (anyActive && min > watermark) {
            watermark = min;
        }
        return watermark;
    }

    /** The end of a bounded input: the watermark jumps to +infinity. */
    public long endOfInput() {
        watermark = Long.MAX_VALUE;
        return watermark;
    }

    public long watermark() {
        return watermark;
    }

    /** {@code W(p)} of one partition (Long.MIN_VALUE before its first record). */
    public long partitionWatermark(TopicPartition partition) {
        return partition(partition).watermark();
    }

    public boolean isIdle(TopicPartition partition) {
        return partition(partition).idle;
    }

    private PartitionTime partition(TopicPartition partition) {
        PartitionTime p = partitions.get(partition);
        if (p == null) {
            throw new IllegalArgumentException("This task does not read " + partition);
        }
        return p;
    }
}
