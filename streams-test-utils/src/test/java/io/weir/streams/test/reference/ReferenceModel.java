package io.weir.streams.test.reference;

import io.weir.streams.dsl.LateRecord;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.time.Window;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A brute-force reference for Weir's windowed aggregations (count or sum; tumbling, hopping,
 * sliding or session windows) over the TestDriver, written from the event-time contract
 * (docs/concepts/event-time.md) and the Javadoc of Weir's public DSL, not from Weir's code. It keeps every record and recomputes
 * what it needs from scratch each time: slow, and meant to be obviously right.
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
 *       that window ({@code late-records-dropped}, one per window); otherwise it is added
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
 * A record refused by every window containing it goes to the late-data side output once when the
 * scenario has one, reason LATE, naming each of those windows; a record some window took does not,
 * even if other windows refused it. A future record goes there too (reason FUTURE_TIMESTAMP). Each
 * carries the watermark it was judged against and its event time.
 *
 * <p><b>Sessions</b> with gap {@code G} and an optional cap {@code M} on a session's length, in place
 * of rules 6, 7 and 9 to 12 (rules 1 to 5 and 8 hold for them too)
 * <ol start="13">
 *   <li>A valid record at event time {@code t} of key {@code k} has the proto-window
 *       {@code [t, t + G)}.</li>
 *   <li>Each key has a set of live sessions, each with a window {@code [start, end)}, a pane counter,
 *       a sealed flag and the records it holds. Sessions of a key never share records.</li>
 *   <li>The candidates are the key's live sessions that are not sealed and whose window overlaps or
 *       touches the proto-window ({@code start <= t + G} and {@code t <= end}): as in Kafka Streams
 *       and Flink, records exactly a gap apart share a session.</li>
 *   <li>{@code merged} is the smallest window covering the proto-window and every candidate. If a
 *       cap is set and {@code merged.end - merged.start > M}, then {@code merged} is the proto-window
 *       and the candidates are to be sealed: they take no more records, ever, yet still fire and
 *       close as usual, and a new session may overlap a sealed one.</li>
 *   <li>If {@code W >= merged.end - 1 + L} the record is refused, reason LATE
 *       ({@code late-records-dropped}), from the window {@code merged}, and nothing changes: nothing
 *       is sealed either.</li>
 *   <li>Otherwise what rule 16 said is sealed. A key never has two live sessions with one window: if
 *       a live session of the key (a candidate, or a sealed one) already has the window
 *       {@code merged}, it takes the record and the records of every other candidate, which are
 *       removed; its pane counter goes on and it stays sealed if it was. Else every candidate is
 *       removed and a new session with window {@code merged} holds their records and this one, its
 *       pane counter starting at 0 (it is a new window). When {@code n >= 2} sessions come together
 *       (the candidates, plus the session that takes them if it was not one), that counts
 *       {@code n - 1} in {@code sessions-merged}.</li>
 *   <li>If moreover {@code W >= merged.end - 1} the record is late: counted once
 *       ({@code late-records-added}), and the session that took it emits a LATE pane at once.</li>
 *   <li>When {@code W} moves from {@code W0} to {@code W1}, every live session with
 *       {@code W0 < end - 1 <= W1} emits its ON_TIME pane (so a session created or extended after
 *       {@code W} passed its {@code end - 1} never emits one); then every live session with
 *       {@code W >= end - 1 + L} is closed and removed. At the end of input every remaining ON_TIME
 *       pane fires, then everything closes.</li>
 *   <li>A pane's value is the count or sum of the session's records; its timestamp is
 *       {@code end - 1}; its index is the session's pane counter (which then goes up by one); it is
 *       final when emitted while {@code W >= end - 1 + L}.</li>
 * </ol>
 */
final class ReferenceModel {

    /** A record as the model saw it: its offset in its partition, the {@code W} it was judged against, if future. */
    record JudgedRecord(InputRecord record, long offset, long watermark, boolean future) {}

    private record WindowId(int task, String key, Window window) {}

    /** Rule 14: a session of a key, live until it is merged away or closed. */
    private static final class Session {
        final WindowId id;
        final List<JudgedRecord> records;
        long paneCount;
        boolean sealed;
        boolean live = true;

        Session(WindowId id, List<JudgedRecord> records) {
            this.id = id;
            this.records = records;
        }

        /** Overlaps or touches {@code window}: their records are at most a gap apart (rule 15). */
        boolean meets(Window window) {
            return id.window().start() <= window.end()
                    && window.start() <= id.window().end();
        }
    }

    private final Scenario scenario;
    private final List<String> topics;
    private final long startTime;
    private final long[] watermarks;
    private final List<JudgedRecord> judged = new ArrayList<>();
    /** The windows that exist, with the number of panes each has emitted. */
    private final Map<WindowId, Long> paneCounts = new LinkedHashMap<>();
    /** Every session ever created, in order of creation; the removed ones too, for {@link #valuesOf}. */
    private final List<Session> sessions = new ArrayList<>();

    private final List<Pane> panes = new ArrayList<>();
    private final List<RefusedRecord> refused = new ArrayList<>();
    private long lateRecordsAdded;
    private long lateRecordsDropped;
    private long futureRecordsDropped;
    private long sessionsMerged;
    private long sessionsSealed;
    private long sealedSessionsJoined;
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
        long onTime = panes.stream()
                .filter(p -> p.timing() == PaneInfo.Timing.ON_TIME)
                .count();
        long late =
                panes.stream().filter(p -> p.timing() == PaneInfo.Timing.LATE).count();
        List<RefusedRecord> sideOutput = scenario.lateTopic() ? refused : List.of();
        return new Outcome(
                panes,
                sideOutput,
                new Outcome.Counters(
                        lateRecordsAdded,
                        lateRecordsDropped,
                        futureRecordsDropped,
                        onTime,
                        late,
                        sideOutput.size(),
                        sessionsMerged));
    }

    /** How many records a sealed session took because its window was theirs (rule 18). */
    long sealedSessionsJoined() {
        return sealedSessionsJoined;
    }

    /** How many sessions a record sealed (rule 16): not a Weir metric, but shows the cap was hit. */
    long sessionsSealed() {
        return sessionsSealed;
    }

    /** Every record, in arrival order, as it was judged. */
    List<JudgedRecord> judgedRecords() {
        return List.copyOf(judged);
    }

    /**
     * The values the last pane of {@code key}'s {@code window} must aggregate, in arrival order. Rule
     * 12: the key's records in the window that were not refused for it. Rule 21, for sessions: the
     * records held by the latest session of the key with that window (when it was removed, if it was).
     */
    List<Long> valuesOf(String key, Window window) {
        if (scenario.windows() instanceof WindowShape.Session) {
            List<Session> withWindow = sessions.stream()
                    .filter(s -> s.id.key().equals(key) && s.id.window().equals(window))
                    .toList();
            return withWindow.isEmpty()
                    ? List.of()
                    : withWindow.get(withWindow.size() - 1).records.stream()
                            .map(j -> j.record().value())
                            .toList();
        }
        return judged.stream()
                .filter(j -> j.record().key().equals(key)
                        && !j.future()
                        && !refusedFor(j, window)
                        && window.start() <= j.record().eventTime()
                        && j.record().eventTime() < window.end())
                .map(j -> j.record().value())
                .toList();
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
                && record.eventTime() > sum(now, scenario.maxFutureSkew().getAsLong());
        long offset = judged.stream()
                .filter(j -> sameInputPartition(j.record(), record))
                .count();
        JudgedRecord judgedRecord = new JudgedRecord(record, offset, watermarks[task], future);
        judged.add(judgedRecord);
        if (future) {
            futureRecordsDropped++;
            refuse(judgedRecord, LateRecord.Reason.FUTURE_TIMESTAMP, List.of());
        } else if (scenario.windows() instanceof WindowShape.Session session) {
            assignToSession(judgedRecord, session);
        } else {
            assignToWindows(judgedRecord);
        }
        raiseWatermark(task);
    }

    private void endOfInput() {
        for (int task = 0; task < watermarks.length; task++) {
            fireOnTime(task, watermarks[task], Long.MAX_VALUE);
            watermarks[task] = Long.MAX_VALUE;
            closeSessions(task);
        }
    }

    /** Rule 4. */
    private void raiseWatermark(int task) {
        OptionalLong candidate = candidateWatermark(task);
        if (candidate.isPresent() && candidate.getAsLong() > watermarks[task]) {
            long previous = watermarks[task];
            watermarks[task] = candidate.getAsLong();
            fireOnTime(task, previous, watermarks[task]);
            closeSessions(task);
        }
    }

    /** Rules 2 to 4, from every record seen so far. */
    private OptionalLong candidateWatermark(int task) {
        OptionalLong min = OptionalLong.empty();
        for (String topic : topics) {
            List<JudgedRecord> seen = judged.stream()
                    .filter(j -> j.record().topic().equals(topic) && j.record().partition() == task)
                    .toList();
            long lastArrival = seen.isEmpty()
                    ? startTime
                    : seen.get(seen.size() - 1).record().arrivalTime();
            if (scenario.idleness().isPresent()
                    && now - lastArrival >= scenario.idleness().getAsLong()) {
                continue;
            }
            OptionalLong maxSeen = seen.stream()
                    .filter(j -> !j.future())
                    .mapToLong(j -> j.record().eventTime())
                    .max();
            long partitionWatermark = maxSeen.isPresent() ? maxSeen.getAsLong() - scenario.delay() - 1 : Long.MIN_VALUE;
            min = OptionalLong.of(Math.min(min.orElse(Long.MAX_VALUE), partitionWatermark));
        }
        return min;
    }

    /** Rules 9 and 10. */
    private void assignToWindows(JudgedRecord record) {
        long watermark = record.watermark();
        List<Window> refusedBy = new ArrayList<>();
        boolean taken = false;
        for (Window window : windowsContaining(record)) {
            if (refusedFor(record, window)) {
                lateRecordsDropped++;
                refusedBy.add(window);
                continue;
            }
            taken = true;
            WindowId id = windowId(record, window);
            paneCounts.putIfAbsent(id, 0L);
            if (watermark >= lastInstant(window)) {
                lateRecordsAdded++;
                emit(id, PaneInfo.Timing.LATE, watermark);
            }
        }
        if (!taken && !refusedBy.isEmpty()) {
            refusedBy.sort(Comparator.comparingLong(Window::start).thenComparingLong(Window::end));
            refuse(record, LateRecord.Reason.LATE, refusedBy);
        }
        if (scenario.windows() instanceof WindowShape.Sliding sliding) {
            createRightWindow(record, sliding.difference());
        }
    }

    /** Rules 13 to 19. */
    private void assignToSession(JudgedRecord record, WindowShape.Session shape) {
        long t = record.record().eventTime();
        WindowId proto = windowId(record, new Window(t, sum(t, shape.gap())));
        List<Session> candidates = sessions.stream()
                .filter(s -> s.live
                        && !s.sealed
                        && s.id.task() == proto.task()
                        && s.id.key().equals(proto.key())
                        && s.meets(proto.window()))
                .toList();
        long start = proto.window().start();
        long end = proto.window().end();
        for (Session candidate : candidates) {
            start = Math.min(start, candidate.id.window().start());
            end = Math.max(end, candidate.id.window().end());
        }
        boolean capped = shape.maxLength() > 0 && end - start > shape.maxLength();
        Window merged = capped ? proto.window() : new Window(start, end);
        long watermark = record.watermark();
        if (watermark >= purgeTime(merged)) {
            lateRecordsDropped++;
            refuse(record, LateRecord.Reason.LATE, List.of(merged));
            return;
        }
        List<Session> merging = candidates;
        if (capped) {
            candidates.forEach(s -> s.sealed = true);
            sessionsSealed += candidates.size();
            merging = List.of();
        }
        Session existing = sessions.stream()
                .filter(s -> s.live
                        && s.id.task() == proto.task()
                        && s.id.key().equals(proto.key())
                        && s.id.window().equals(merged))
                .findFirst()
                .orElse(null);
        List<Session> others = merging.stream().filter(s -> s != existing).toList();
        List<JudgedRecord> records = new ArrayList<>();
        for (Session s : others) {
            s.live = false;
            records.addAll(s.records);
        }
        records.add(record);
        sessionsMerged += Math.max(0, others.size() + (existing != null ? 1 : 0) - 1);
        Session taker;
        if (existing != null) {
            sealedSessionsJoined += existing.sealed ? 1 : 0;
            taker = existing;
            taker.records.addAll(records);
        } else {
            taker = new Session(windowId(record, merged), records);
            sessions.add(taker);
        }
        if (watermark >= lastInstant(merged)) {
            lateRecordsAdded++;
            emit(taker, PaneInfo.Timing.LATE, watermark);
        }
    }

    /** Rule 20: closes the task's sessions past their allowed lateness. */
    private void closeSessions(int task) {
        for (Session s : sessions) {
            if (s.live && s.id.task() == task && watermarks[task] >= purgeTime(s.id.window())) {
                s.live = false;
            }
        }
    }

    /** Rule 10. */
    private void createRightWindow(JudgedRecord record, long difference) {
        long t = record.record().eventTime();
        long watermark = record.watermark();
        if (t >= Long.MAX_VALUE - 1) {
            return;
        }
        Window right = new Window(t + 1, sum(t, difference + 2));
        WindowId id = windowId(record, right);
        if (slidingWindows(record, difference).contains(right)
                && watermark < purgeTime(right)
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
        return slidingWindows(record, difference).stream()
                .filter(w -> w.start() <= t && t < w.end())
                .toList();
    }

    private static List<Window> hoppingWindowsContaining(long t, long size, long advance) {
        List<Window> windows = new ArrayList<>();
        for (long start = Math.floorDiv(t - size, advance) * advance; start <= t; start = sum(start, advance)) {
            if (t < sum(start, size)) {
                windows.add(new Window(start, sum(start, size)));
            }
            if (start == Long.MAX_VALUE) {
                break;
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
            // By identity: the record itself is left out, not an equal record of another offset.
            @SuppressWarnings("ReferenceEquality")
            boolean another = other != record;
            if (another
                    && other.record().key().equals(record.record().key())
                    && !other.future()
                    && record.watermark() < sum(other.record().eventTime(), reach)) {
                times.add(other.record().eventTime());
            }
        }
        Set<Window> windows = new LinkedHashSet<>();
        for (long r : times) {
            windows.add(new Window(r - difference, r + 1));
            if (times.stream().anyMatch(s -> r < s && s <= sum(r, difference))) {
                windows.add(new Window(r + 1, sum(r, difference + 2)));
            }
        }
        return windows;
    }

    /** Rules 11 and 20. */
    private void fireOnTime(int task, long previous, long current) {
        for (WindowId id : List.copyOf(paneCounts.keySet())) {
            if (id.task() == task && passed(id.window(), previous, current)) {
                emit(id, PaneInfo.Timing.ON_TIME, current);
            }
        }
        for (Session s : sessions) {
            if (s.live && s.id.task() == task && passed(s.id.window(), previous, current)) {
                emit(s, PaneInfo.Timing.ON_TIME, current);
            }
        }
    }

    /** Whether the watermark moving from {@code previous} to {@code current} passes the window's last instant. */
    private static boolean passed(Window window, long previous, long current) {
        long last = lastInstant(window);
        return previous < last && last <= current;
    }

    /** Rule 12. */
    private void emit(WindowId id, PaneInfo.Timing timing, long watermark) {
        long index = paneCounts.get(id);
        paneCounts.put(id, index + 1);
        Window window = id.window();
        long value = scenario.aggregate().of(valuesOf(id.key(), window));
        panes.add(new Pane(
                id.key(),
                window.start(),
                window.end(),
                value,
                lastInstant(window),
                timing,
                index,
                watermark >= purgeTime(window)));
    }

    /** Rule 21. */
    private void emit(Session session, PaneInfo.Timing timing, long watermark) {
        long index = session.paneCount++;
        Window window = session.id.window();
        long value = scenario.aggregate()
                .of(session.records.stream().map(j -> j.record().value()).toList());
        panes.add(new Pane(
                session.id.key(),
                window.start(),
                window.end(),
                value,
                lastInstant(window),
                timing,
                index,
                watermark >= purgeTime(window)));
    }

    /** Rule 9: a record is refused for a window when judged against {@code W >= purge}. */
    private boolean refusedFor(JudgedRecord record, Window window) {
        return record.watermark() >= purgeTime(window);
    }

    private void refuse(JudgedRecord judgedRecord, LateRecord.Reason reason, List<Window> windows) {
        InputRecord r = judgedRecord.record();
        refused.add(new RefusedRecord(
                r.key(),
                r.value(),
                r.topic(),
                r.partition(),
                judgedRecord.offset(),
                reason,
                List.copyOf(windows),
                judgedRecord.watermark(),
                r.eventTime(),
                r.eventTime()));
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
        return sum(lastInstant(window), scenario.allowedLateness());
    }

    /**
     * {@code a + b} for a non-negative {@code b}, or Long.MAX_VALUE when it is more: no time lies beyond, so
     * the last window of time ends there, shorter than the others.
     */
    private static long sum(long a, long b) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
