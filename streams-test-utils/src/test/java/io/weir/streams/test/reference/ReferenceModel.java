package io.weir.streams.test.reference;

import io.weir.streams.dsl.LateRecord;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Window;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A brute-force reference for Weir's windowed aggregations (count or sum; tumbling, hopping or
 * sliding windows) over the TestDriver, written from the event-time contract of DESIGN.md and the
 * Javadoc of Weir's public DSL, not from Weir's code. It keeps every record and recomputes what it
 * needs from scratch each time: slow, and meant to be obviously right.
 *
 * <p>Input: records in arrival order (key, value, topic, partition, event time {@code t}, arrival
 * processing time), explicit advances of processing time, and the end of input. Task {@code p} reads
 * partition {@code p} of every input topic; a key's records all go to one partition. With delay
 * {@code D}, idleness {@code I}, maximum future skew {@code S} and allowed lateness {@code L}:
 *
 * <p><b>Watermarks</b>
 * <ol>
 *   <li>A record is <em>future</em> when {@code t > now + S} ({@code now}: processing time at its
 *       arrival). Only the other records are <em>valid</em>.</li>
 *   <li>{@code W(q)} of an input partition {@code q} is the largest event time of its valid records
 *       minus {@code D + 1}, or minus infinity before its first valid record.</li>
 *   <li>At processing time {@code now}, {@code q} is idle when {@code now - last >= I}, where
 *       {@code last} is the arrival time of its latest record of any kind, or the start time of the
 *       driver when it has none. Without idleness no partition is ever idle.</li>
 *   <li>A task's candidate watermark is the minimum of {@code W(q)} over its non-idle partitions
 *       (none when all are idle). Its watermark {@code W} starts at minus infinity and becomes the
 *       candidate whenever that is larger. The candidate is evaluated each time processing time moves
 *       (before a record arriving then is judged) and after each of the task's records. At the end of
 *       input {@code W} becomes plus infinity.</li>
 *   <li>A record is judged against its task's {@code W} before the record.</li>
 * </ol>
 *
 * <p><b>Windows</b> (a window {@code [start, end)} holds event times {@code start <= t < end})
 * <ol start="6">
 *   <li>Hopping {@code (size, advance)}: every {@code [n * advance, n * advance + size)}, {@code n} an
 *       integer; tumbling {@code size} is hopping {@code (size, size)}.</li>
 *   <li>Sliding with difference {@code d}: given a set of records of a key, each record {@code r}
 *       has a left window {@code [r - d, r + 1)}, holding event times {@code r - d} to {@code r}, and a
 *       right window {@code [r + 1, r + d + 2)} when another record has event time in
 *       {@code (r, r + d]}. The set that decides this when a record is judged is the record itself
 *       and the key's valid records still within reach: {@code W < r + d + 1 + L}. (Past that every
 *       window such a record takes part in is purged, so it cannot change a live window; whether
 *       purged windows it implied count for drops is left open by the contract, and the model follows
 *       the retention documented in Weir's sliding-window function.)</li>
 * </ol>
 *
 * <p><b>Lateness and panes</b>, with {@code last = end - 1} and {@code purge = last + L}
 * <ol start="8">
 *   <li>A future record is refused with reason FUTURE_TIMESTAMP ({@code future-records-dropped}).</li>
 *   <li>For each window containing a valid record: if {@code W >= purge} the record is refused for
 *       that window, reason LATE ({@code late-records-dropped}, one per window); otherwise it is added
 *       and the window exists from then on; if moreover {@code W >= last} it is late: counted
 *       ({@code late-records-added}) and the window emits a LATE pane at once.</li>
 *   <li>Sliding windows only: a record's right window does not contain it, but the record may be the
 *       one that makes it exist. If it does not exist yet and {@code W < purge}, it starts to exist;
 *       if already {@code W >= last} it emits a LATE pane at once, since it will have no ON_TIME one.
 *       It is not counted as a late or dropped record.</li>
 *   <li>When {@code W} moves from {@code W0} to {@code W1}, every existing window with
 *       {@code W0 < last <= W1} emits its ON_TIME pane. So a window that did not exist before
 *       {@code W} passed {@code last} never emits one: its first pane is LATE.</li>
 *   <li>A pane's value is the count or sum over the window's records that were not refused for it:
 *       the key's valid records with {@code t} in the window judged against {@code W < purge}. Its
 *       timestamp is {@code last}; its index counts the window's panes from 0; it is final when
 *       emitted while {@code W >= purge} (at the end of input every remaining ON_TIME pane is).</li>
 * </ol>
 * Every refused record goes to the late-data side output when the scenario has one, with the
 * window it was refused from (LATE), the watermark it was judged against and its event time.
 */
final class ReferenceModel {

    /** A record as the model saw it: its offset in its partition, the {@code W} it was judged against, if future. */
    record JudgedRecord(InputRecord record, long offset, long watermark, boolean future) {
    }

    private record WindowId(int task, String key, Window window) {
    }

    private final Scenario scenario;
    private final List<String> topics;
    private final long startTime;
    private final long[] watermarks;
    private final List<JudgedRecord> judged = new ArrayList<>();
    /** The windows that exist, with the number of panes each has emitted. */
    private final Map<WindowId, Long> paneCounts = new LinkedHashMap<>();
    private final List<Pane> panes = new ArrayList<>();
    private final List<RefusedRecord> refused = new ArrayList<>();
    private long lateRecordsAdded;
    private long lateRecordsDropped;
    private long futureRecordsDropped;
    private long now;

    private ReferenceModel(Scenario scenario, GeneratedStream stream) {
        this.scenario = scenario;
        this.topics = stream.topics();
        this.startTime = stream.startTime();
        this.now = stream.startTime();
        this.watermarks = new long[stream.partitions()];
        Arrays.fill(watermarks, Long.MIN_VALUE);
    }

    /** The model after it consumed every step of {@code stream} and its end. */
    static ReferenceModel run(Scenario scenario, GeneratedStream stream) {
        ReferenceModel model = new ReferenceModel(scenario, stream);
        for (StreamStep step : stream.steps()) {
            if (step instanceof StreamStep.Arrival arrival) {
                model.arrive(arrival.record());
            } else {
                model.advanceTo(((StreamStep.AdvanceTime) step).processingTime());
            }
        }
        model.endOfInput();
        return model;
    }

    /** What the aggregation should have produced. */
    Outcome outcome() {
        long onTime = panes.stream().filter(p -> p.timing() == PaneInfo.Timing.ON_TIME).count();
        long late = panes.stream().filter(p -> p.timing() == PaneInfo.Timing.LATE).count();
        List<RefusedRecord> sideOutput = scenario.lateTopic() ? refused : List.of();
        return new Outcome(panes, sideOutput, new Outcome.Counters(lateRecordsAdded, lateRecordsDropped,
                futureRecordsDropped, onTime, late, sideOutput.size()));
    }

    /** Every record, in arrival order, as it was judged. */
    List<JudgedRecord> judgedRecords() {
        return List.copyOf(judged);
    }

    /**
     * Rule 12: the values of the records of {@code key} in {@code window} that were not refused for it,
     * in arrival order.
     */
    List<Long> valuesNotRefused(String key, Window window) {
        return judged.stream()
                .filter(j -> j.record().key().equals(key) && !j.future() && !refusedFor(j, window)
                        && window.start() <= j.record().eventTime() && j.record().eventTime() < window.end())
                .map(j -> j.record().value()).toList();
    }

    private void advanceTo(long time) {
        if (time <= now) {
            return;
        }
        now = time;
        for (int task = 0; task < watermarks.length; task++) {
            raiseWatermark(task);
        }
    }

    private void arrive(InputRecord record) {
        advanceTo(record.arrivalTime());
        int task = record.partition();
        boolean future = scenario.maxFutureSkew().isPresent()
                && record.eventTime() > now + scenario.maxFutureSkew().getAsLong();
        long offset = judged.stream().filter(j -> sameInputPartition(j.record(), record)).count();
        JudgedRecord judgedRecord = new JudgedRecord(record, offset, watermarks[task], future);
        judged.add(judgedRecord);
        if (future) {
            futureRecordsDropped++;
            refuse(judgedRecord, LateRecord.Reason.FUTURE_TIMESTAMP, null);
        } else {
            assignToWindows(judgedRecord);
        }
        raiseWatermark(task);
    }

    private void endOfInput() {
        for (int task = 0; task < watermarks.length; task++) {
            fireOnTime(task, watermarks[task], Long.MAX_VALUE);
            watermarks[task] = Long.MAX_VALUE;
        }
    }

    /** Rule 4. */
    private void raiseWatermark(int task) {
        OptionalLong candidate = candidateWatermark(task);
        if (candidate.isPresent() && candidate.getAsLong() > watermarks[task]) {
            long previous = watermarks[task];
            watermarks[task] = candidate.getAsLong();
            fireOnTime(task, previous, watermarks[task]);
        }
    }

    /** Rules 2 to 4, from every record seen so far. */
    private OptionalLong candidateWatermark(int task) {
        OptionalLong min = OptionalLong.empty();
        for (String topic : topics) {
            List<JudgedRecord> seen = judged.stream()
                    .filter(j -> j.record().topic().equals(topic) && j.record().partition() == task).toList();
            long lastArrival = seen.isEmpty() ? startTime : seen.get(seen.size() - 1).record().arrivalTime();
            if (scenario.idleness().isPresent() && now - lastArrival >= scenario.idleness().getAsLong()) {
                continue;
            }
            OptionalLong maxSeen = seen.stream().filter(j -> !j.future()).mapToLong(j -> j.record().eventTime()).max();
            long partitionWatermark = maxSeen.isPresent() ? maxSeen.getAsLong() - scenario.delay() - 1 : Long.MIN_VALUE;
            min = OptionalLong.of(Math.min(min.orElse(Long.MAX_VALUE), partitionWatermark));
        }
        return min;
    }

    /** Rules 9 and 10. */
    private void assignToWindows(JudgedRecord record) {
        long watermark = record.watermark();
        for (Window window : windowsContaining(record)) {
            if (refusedFor(record, window)) {
                lateRecordsDropped++;
                refuse(record, LateRecord.Reason.LATE, window);
                continue;
            }
            WindowId id = windowId(record, window);
            paneCounts.putIfAbsent(id, 0L);
            if (watermark >= lastInstant(window)) {
                lateRecordsAdded++;
                emit(id, PaneInfo.Timing.LATE, watermark);
            }
        }
        if (scenario.windows() instanceof WindowShape.Sliding sliding) {
            createRightWindow(record, sliding.difference());
        }
    }

    /** Rule 10. */
    private void createRightWindow(JudgedRecord record, long difference) {
        long t = record.record().eventTime();
        long watermark = record.watermark();
        Window right = new Window(t + 1, t + difference + 2);
        WindowId id = windowId(record, right);
        if (slidingWindows(record, difference).contains(right) && watermark < purgeTime(right)
                && !paneCounts.containsKey(id)) {
            paneCounts.put(id, 0L);
            if (watermark >= lastInstant(right)) {
                emit(id, PaneInfo.Timing.LATE, watermark);
            }
        }
    }

    /** Rules 6 and 7: the windows that contain the record. */
    private List<Window> windowsContaining(JudgedRecord record) {
        long t = record.record().eventTime();
        if (scenario.windows() instanceof WindowShape.Tumbling tumbling) {
            return hoppingWindowsContaining(t, tumbling.size(), tumbling.size());
        }
        if (scenario.windows() instanceof WindowShape.Hopping hopping) {
            return hoppingWindowsContaining(t, hopping.size(), hopping.advance());
        }
        long difference = ((WindowShape.Sliding) scenario.windows()).difference();
        return slidingWindows(record, difference).stream().filter(w -> w.start() <= t && t < w.end()).toList();
    }

    private static List<Window> hoppingWindowsContaining(long t, long size, long advance) {
        List<Window> windows = new ArrayList<>();
        for (long start = Math.floorDiv(t - size, advance) * advance; start <= t; start += advance) {
            if (t < start + size) {
                windows.add(new Window(start, start + size));
            }
        }
        return windows;
    }

    /** Rule 7: the sliding windows of the record's key when it is judged. */
    private Set<Window> slidingWindows(JudgedRecord record, long difference) {
        long reach = difference + 1 + scenario.allowedLateness();
        List<Long> times = new ArrayList<>();
        times.add(record.record().eventTime());
        for (JudgedRecord other : judged) {
            if (other != record && other.record().key().equals(record.record().key()) && !other.future()
                    && record.watermark() < other.record().eventTime() + reach) {
                times.add(other.record().eventTime());
            }
        }
        Set<Window> windows = new LinkedHashSet<>();
        for (long r : times) {
            windows.add(new Window(r - difference, r + 1));
            if (times.stream().anyMatch(s -> r < s && s <= r + difference)) {
                windows.add(new Window(r + 1, r + difference + 2));
            }
        }
        return windows;
    }

    /** Rule 11. */
    private void fireOnTime(int task, long previous, long current) {
        for (WindowId id : List.copyOf(paneCounts.keySet())) {
            long last = lastInstant(id.window());
            if (id.task() == task && previous < last && last <= current) {
                emit(id, PaneInfo.Timing.ON_TIME, current);
            }
        }
    }

    /** Rule 12. */
    private void emit(WindowId id, PaneInfo.Timing timing, long watermark) {
        long index = paneCounts.get(id);
        paneCounts.put(id, index + 1);
        Window window = id.window();
        long value = scenario.aggregate().of(valuesNotRefused(id.key(), window));
        panes.add(new Pane(id.key(), window.start(), window.end(), value, lastInstant(window), timing, index,
                watermark >= purgeTime(window)));
    }

    /** Rule 9: a record is refused for a window when judged against {@code W >= purge}. */
    private boolean refusedFor(JudgedRecord record, Window window) {
        return record.watermark() >= purgeTime(window);
    }

    private void refuse(JudgedRecord judgedRecord, LateRecord.Reason reason, Window window) {
        InputRecord r = judgedRecord.record();
        Optional<Window> w = Optional.ofNullable(window);
        refused.add(new RefusedRecord(r.key(), r.value(), r.topic(), r.partition(), judgedRecord.offset(), reason,
                w.map(Window::start).orElse(null), w.map(Window::end).orElse(null), judgedRecord.watermark(),
                r.eventTime(), r.eventTime()));
    }

    private static WindowId windowId(JudgedRecord record, Window window) {
        return new WindowId(record.record().partition(), record.record().key(), window);
    }

    private static boolean sameInputPartition(InputRecord a, InputRecord b) {
        return a.topic().equals(b.topic()) && a.partition() == b.partition();
    }

    private static long lastInstant(Window window) {
        return window.end() - 1;
    }

    private long purgeTime(Window window) {
        return lastInstant(window) + scenario.allowedLateness();
    }
}
