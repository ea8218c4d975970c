package io.weir.streams.internals.task;

import io.weir.streams.internals.TimeMath;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A task's watermark, as {@link WatermarkStrategy} and docs/concepts/watermarks.md state it. Each input partition
 * has its own watermark {@code W(p)}:
 * <ul>
 *   <li>a partition of a user topic: {@code maxSeenEventTime(p) - delay - 1}; with idleness, a partition
 *       without records for {@code idleness} of processing time is idle until its next record;</li>
 *   <li>a partition of a repartition topic: the minimum of the last watermarks its upstream tasks
 *       wrote to it, idle upstream tasks left out; idle when every upstream task is.</li>
 * </ul>
 * The task's watermark is the minimum over non-idle partitions, never moves back, and stays put while
 * every partition is idle. Partitions of tables ({@code StreamsBuilder.table}) count only in a task that
 * reads no stream: a table that changes once a day must not hold back the windows of the streams beside
 * it. Single-threaded.
 */
public final class WatermarkTracker {

    /** One input partition's contribution. */
    private interface InputTime {
        long watermark();

        boolean idle();

        default void onProcessingTime(long now) {}
    }

    private static final class EventTimeInput implements InputTime {
        final long delay;
        final long idleness;
        long maxSeen = Long.MIN_VALUE;
        long lastActivity;
        boolean idle;

        EventTimeInput(WatermarkStrategy strategy, long now) {
            this.delay = TimeMath.millis(strategy.delay());
            this.idleness = strategy.idleness().map(TimeMath::millis).orElse(-1L);
            this.lastActivity = now;
        }

        @Override
        public long watermark() {
            return maxSeen == Long.MIN_VALUE ? Long.MIN_VALUE : TimeMath.minus(TimeMath.minus(maxSeen, delay), 1);
        }

        @Override
        public boolean idle() {
            return idle;
        }

        @Override
        public void onProcessingTime(long now) {
            if (!idle && idleness >= 0 && now >= TimeMath.plus(lastActivity, idleness)) {
                idle = true;
            }
        }
    }

    private static final class UpstreamInput implements InputTime {
        final long[] watermarks;
        final boolean[] idle;

        UpstreamInput(int upstreamTasks) {
            this.watermarks = new long[upstreamTasks];
            this.idle = new boolean[upstreamTasks];
            Arrays.fill(watermarks, Long.MIN_VALUE);
        }

        @Override
        public long watermark() {
            long min = Long.MAX_VALUE;
            for (int i = 0; i < watermarks.length; i++) {
                if (!idle[i]) {
                    min = Math.min(min, watermarks[i]);
                }
            }
            return min;
        }

        @Override
        public boolean idle() {
            for (boolean i : idle) {
                if (!i) {
                    return false;
                }
            }
            return true;
        }
    }

    private final Map<TopicPartition, InputTime> inputs = new LinkedHashMap<>();
    private final List<InputTime> streams = new ArrayList<>();
    private final List<InputTime> tables = new ArrayList<>();
    private long watermark = Long.MIN_VALUE;

    /**
     * Tracks a user-topic partition from processing time {@code now} (idleness counts from here); a
     * {@code table}'s partition makes the watermark only if the task reads no stream.
     */
    public void add(TopicPartition partition, WatermarkStrategy strategy, long now, boolean table) {
        EventTimeInput input = new EventTimeInput(strategy, now);
        inputs.put(partition, input);
        (table ? tables : streams).add(input);
    }

    /** The partitions that make the watermark: the streams', or the tables' in a task that reads no stream. */
    private List<InputTime> timing() {
        return streams.isEmpty() ? tables : streams;
    }

    /** Processing time starts at {@code now}, before any record: idleness counts from here. */
    public void startClock(long now) {
        for (InputTime input : inputs.values()) {
            if (input instanceof EventTimeInput p) {
                p.lastActivity = now;
            }
        }
    }

    /**
     * Tracks a repartition-topic partition written by {@code upstreamTasks} tasks; one not {@code timed}
     * (a join's messages about table rows) is read but never makes the watermark.
     */
    public void addUpstream(TopicPartition partition, int upstreamTasks, boolean timed) {
        UpstreamInput input = new UpstreamInput(upstreamTasks);
        inputs.put(partition, input);
        if (timed) {
            streams.add(input);
        }
    }

    /** A record arrived on a user-topic partition: it is active again, whatever its event time. */
    public void markActive(TopicPartition partition, long now) {
        if (input(partition) instanceof EventTimeInput p) {
            p.lastActivity = Math.max(p.lastActivity, now);
            p.idle = false;
        }
    }

    /** A valid event time was seen on a user-topic partition (future-skewed and invalid ones are not reported). */
    public void observe(TopicPartition partition, long eventTime) {
        if (input(partition) instanceof EventTimeInput p) {
            p.maxSeen = Math.max(p.maxSeen, eventTime);
        }
    }

    /** Upstream task {@code writer} reported its watermark and idleness on a repartition partition. */
    public void upstream(TopicPartition partition, int writer, long upstreamWatermark, boolean upstreamIdle) {
        if (!(input(partition) instanceof UpstreamInput p) || writer < 0 || writer >= p.watermarks.length) {
            throw new IllegalStateException("Unexpected watermark from upstream task " + writer + " on " + partition);
        }
        p.watermarks[writer] = Math.max(p.watermarks[writer], upstreamWatermark);
        p.idle[writer] = upstreamIdle;
    }

    /** Marks partitions idle whose idleness has elapsed by processing time {@code now}. */
    public void onProcessingTime(long now) {
        inputs.values().forEach(p -> p.onProcessingTime(now));
    }

    /** Recomputes the task's watermark from its partitions and returns it (never less than before). */
    public long advance() {
        long min = Long.MAX_VALUE;
        boolean anyActive = false;
        for (InputTime p : timing()) {
            if (!p.idle()) {
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

    /** Whether every input partition that makes the watermark is idle. */
    public boolean allIdle() {
        return timing().stream().allMatch(InputTime::idle);
    }

    /**
     * Per input partition, the text committed with its offset: the task's watermark {@code w}, and the
     * partition's highest event time {@code m} (user topics) or its writers' watermarks {@code u}
     * (repartition topics). Restoring it reproduces this tracker's judgement of lateness.
     */
    public Map<TopicPartition, String> committedTime() {
        Map<TopicPartition, String> out = new LinkedHashMap<>();
        inputs.forEach((tp, input) -> {
            StringBuilder text = new StringBuilder("w=").append(watermark);
            if (input instanceof EventTimeInput e) {
                text.append(";m=").append(e.maxSeen);
            } else if (input instanceof UpstreamInput u) {
                text.append(";u=");
                for (int i = 0; i < u.watermarks.length; i++) {
                    text.append(i == 0 ? "" : ",").append(u.watermarks[i]);
                }
            }
            out.put(tp, text.toString());
        });
        return out;
    }

    /**
     * Restores what {@link #committedTime()} gave for {@code partition}; unknown text is ignored, and so is a
     * known field whose number does not parse (offset metadata anyone with the group's rights can write): the
     * partition then starts from what the other fields and its records say.
     */
    public void restore(TopicPartition partition, String committed) {
        if (committed == null || committed.isEmpty()) {
            return;
        }
        InputTime input = input(partition);
        for (String field : committed.split(";", -1)) {
            int eq = field.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String name = field.substring(0, eq);
            String value = field.substring(eq + 1);
            if (name.equals("w")) {
                watermark = Math.max(watermark, number(value));
            } else if (name.equals("m") && input instanceof EventTimeInput e) {
                e.maxSeen = Math.max(e.maxSeen, number(value));
            } else if (name.equals("u") && input instanceof UpstreamInput u) {
                String[] parts = value.split(",", -1);
                for (int i = 0; i < Math.min(parts.length, u.watermarks.length); i++) {
                    u.watermarks[i] = Math.max(u.watermarks[i], number(parts[i]));
                }
            }
        }
    }

    /** A committed time, or {@link Long#MIN_VALUE} (which restores nothing) when it is not a number. */
    private static long number(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return Long.MIN_VALUE;
        }
    }

    /** {@code W(p)} of one partition (Long.MIN_VALUE before its first record or mark). */
    public long partitionWatermark(TopicPartition partition) {
        return input(partition).watermark();
    }

    public boolean isIdle(TopicPartition partition) {
        return input(partition).idle();
    }

    private InputTime input(TopicPartition partition) {
        InputTime p = inputs.get(partition);
        if (p == null) {
            throw new IllegalArgumentException("This task does not read " + partition);
        }
        return p;
    }
}
