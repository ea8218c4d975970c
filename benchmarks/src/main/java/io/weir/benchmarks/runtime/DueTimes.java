package io.weir.benchmarks.runtime;

import io.weir.benchmarks.CountTopologies;
import io.weir.benchmarks.OutputTally.WindowKey;
import io.weir.benchmarks.Workload;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * When each output of a paced run became due: the moment the input that made it what it is had been
 * produced. An output's latency is the time it became visible to a {@code read_committed} consumer
 * less the time it became due, the same rule for every app:
 * <ul>
 *   <li>an update "count {@code n} for key {@code k} in window {@code w}" is due when the {@code n}-th
 *       record of {@code k} in {@code w} was sent;</li>
 *   <li>a once-per-window result for {@code k} in {@code w = [start, end)} is due when the first
 *       record in {@code k}'s partition with an event time at or past {@code end + 30 s} was sent: the
 *       record that moves Weir's watermark ({@code max event time - 30 s - 1 ms}) to {@code end - 1},
 *       and Kafka Streams' stream time past {@code end + grace}. Before it, the window may still get
 *       records.</li>
 * </ul>
 */
final class DueTimes {

    private final PacedLoad load;
    private final Map<WindowKey, int[]> recordsOfWindow = new HashMap<>();
    private final Map<String, Integer> partitionOfKey = new HashMap<>();
    /** Per partition, its records' indexes in send order, and the highest event time up to each. */
    private final Map<Integer, int[]> recordsOfPartition = new HashMap<>();

    private final Map<Integer, long[]> maxEventTimeOfPartition = new HashMap<>();

    DueTimes(PacedLoad load) {
        this.load = load;
        Workload workload = load.workload();
        Map<WindowKey, int[]> growing = new HashMap<>();
        Map<Integer, int[]> partitionRecords = new HashMap<>();
        Map<Integer, Integer> partitionSizes = new HashMap<>();
        for (int i = 0; i < workload.size(); i++) {
            WindowKey window = windowOf(workload, i);
            int[] list = growing.computeIfAbsent(window, w -> new int[] {0, 0, 0, 0, 0});
            if (list[0] + 1 == list.length) {
                list = Arrays.copyOf(list, list.length * 2);
                growing.put(window, list);
            }
            list[++list[0]] = i;
            int p = load.partition(i);
            partitionOfKey.put(workload.key(i), p);
            int size = partitionSizes.merge(p, 1, Integer::sum);
            int[] records = partitionRecords.computeIfAbsent(p, q -> new int[16]);
            if (size > records.length) {
                records = Arrays.copyOf(records, records.length * 2);
                partitionRecords.put(p, records);
            }
            records[size - 1] = i;
        }
        growing.forEach((w, list) -> recordsOfWindow.put(w, Arrays.copyOfRange(list, 1, list[0] + 1)));
        partitionRecords.forEach((p, records) -> {
            int[] exact = Arrays.copyOf(records, partitionSizes.getOrDefault(p, 0));
            long[] max = new long[exact.length];
            long highest = Long.MIN_VALUE;
            for (int j = 0; j < exact.length; j++) {
                highest = Math.max(highest, workload.eventTime(exact[j]));
                max[j] = highest;
            }
            recordsOfPartition.put(p, exact);
            maxEventTimeOfPartition.put(p, max);
        });
    }

    private static WindowKey windowOf(Workload workload, int i) {
        long t = workload.eventTime(i);
        return new WindowKey(workload.key(i), t - Math.floorMod(t, CountTopologies.WINDOW_MS));
    }

    /** When the update "count {@code count} of {@code window}" became due, or -1 if the input never made it. */
    long updateDue(WindowKey window, long count) {
        int[] records = recordsOfWindow.get(window);
        if (records == null || count < 1 || count > records.length) {
            return -1;
        }
        return load.sentNanos(records[(int) count - 1]);
    }

    /** When the once-per-window result of {@code window} became due, or -1 if it never did during the run. */
    long windowDue(WindowKey window) {
        Integer p = partitionOfKey.get(window.key());
        if (p == null) {
            return -1;
        }
        long threshold = window.windowStart() + CountTopologies.WINDOW_MS + Workload.MAX_DELAY_MS;
        long[] max = maxEventTimeOfPartition.get(p);
        int[] records = recordsOfPartition.get(p);
        if (max == null || records == null) {
            return -1;
        }
        int lo = 0;
        int hi = max.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (max[mid] >= threshold) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo == max.length ? -1 : load.sentNanos(records[lo]);
    }

    /** How many once-per-window results became due during the run. */
    long windowsDue() {
        return recordsOfWindow.keySet().stream().filter(w -> windowDue(w) >= 0).count();
    }

    /** The input's count of every (key, window). */
    Map<WindowKey, Long> expectedCounts() {
        Map<WindowKey, Long> counts = new HashMap<>();
        recordsOfWindow.forEach((w, records) -> counts.put(w, (long) records.length));
        return counts;
    }
}
