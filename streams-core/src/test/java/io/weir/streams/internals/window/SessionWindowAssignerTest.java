package io.weir.streams.internals.window;

import io.weir.streams.WeirMetrics;
import io.weir.streams.internals.testing.RecordingContext;
import io.weir.streams.time.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Session windows, the merging assigner, one test per rule of {@code SessionWindows}: a record's own
 * window, merging with what it overlaps or touches, the length cap, and the index kept in step.
 * Gap 10 s; the index lives in a real (RocksDB) store.
 */
class SessionWindowAssignerTest {

    private static final long GAP = 10_000;
    private static final byte[] KEY = "k".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private RecordingContext context;
    private WindowAssigner<String, String, Long> sessions;

    @BeforeEach
    void open() {
        context = new RecordingContext(dir, "sessions");
        sessions = assigner(Long.MAX_VALUE);
    }

    private WindowAssigner<String, String, Long> assigner(long maxLength) {
        WindowAssigner<String, String, Long> assigner = WindowAssigners.sessions(GAP, maxLength, "sessions");
        assigner.init(context);
        return assigner;
    }

    @AfterEach
    void close() {
        context.close();
    }

    /** Assigns a record at {@code t} and accepts it, as the operator does for a record on time. */
    private WindowAssignment accept(WindowAssigner<String, String, Long> assigner, long t) {
        List<WindowAssignment> assignments = assigner.assign("k", KEY, t);
        assertEquals(1, assignments.size(), "a record joins exactly one session");
        assigner.accepted(KEY, assignments.get(0));
        return assignments.get(0);
    }

    @Test
    void aRecordOpensItsOwnWindowOfOneGap() {
        WindowAssignment a = accept(sessions, 5_000);
        assertEquals(new Window(5_000, 15_000), a.window());
        assertFalse(a.mayExist(), "a new session: no store lookup needed");
        assertTrue(a.merged().isEmpty());
    }

    @Test
    void aRecordInsideASessionJoinsItAsItIs() {
        accept(sessions, 0);
        accept(sessions, 5_000);
        WindowAssignment a = accept(sessions, 2_000);
        assertEquals(new Window(0, 15_000), a.window());
        assertTrue(a.mayExist(), "the session exists with exactly this window");
        assertTrue(a.merged().isEmpty());
    }

    @Test
    void aRecordThatExtendsASessionReplacesIt() {
        accept(sessions, 0);
        WindowAssignment a = accept(sessions, 4_000);
        assertEquals(new Window(0, 14_000), a.window());
        assertEquals(List.of(new Window(0, 10_000)), a.merged());
        assertFalse(a.mayExist());
    }

    @Test
    void windowsThatOnlyTouchMerge() {
        accept(sessions, 0);
        WindowAssignment a = accept(sessions, 10_000);
        assertEquals(new Window(0, 20_000), a.window(), "[0, 10 s) and [10 s, 20 s) touch");
    }

    @Test
    void aRecordBridgingTwoSessionsMergesBothAndCountsTheMerge() {
        accept(sessions, 0);
        accept(sessions, 20_000);
        WindowAssignment a = accept(sessions, 10_000);
        assertEquals(new Window(0, 30_000), a.window(), "[10 s, 20 s) touches [0, 10 s) and [20 s, 30 s)");
        assertEquals(List.of(new Window(0, 10_000), new Window(20_000, 30_000)), a.merged());
        assertEquals(1, context.metric(WeirMetrics.SESSIONS_MERGED), "two sessions became one");
    }

    @Test
    void nothingChangesUntilTheOperatorAcceptsTheRecord() {
        accept(sessions, 0);
        WindowAssignment refused = sessions.assign("k", KEY, 4_000).get(0);
        assertEquals(List.of(new Window(0, 10_000)), refused.merged());
        WindowAssignment again = accept(sessions, 2_000);
        assertEquals(new Window(0, 12_000), again.window(), "the refused record did not extend the session");
        assertEquals(List.of(new Window(0, 10_000)), again.merged());
    }

    @Test
    void aRecordThatWouldStretchASessionPastTheCapStartsItsOwnAndSealsTheOther() {
        WindowAssigner<String, String, Long> capped = assigner(25_000);
        accept(capped, 0);
        accept(capped, 8_000);
        WindowAssignment a = accept(capped, 16_000);
        assertEquals(new Window(16_000, 26_000), a.window(), "[0, 26 s) would exceed 25 s");
        assertEquals(List.of(new Window(0, 18_000)), a.sealed());
        assertTrue(a.merged().isEmpty());
        WindowAssignment next = accept(capped, 17_000);
        assertEquals(new Window(16_000, 27_000), next.window(), "the sealed session takes no more records");
        assertEquals(List.of(new Window(16_000, 26_000)), next.merged());
    }

    @Test
    void aClosedSessionLeavesTheIndex() {
        accept(sessions, 0);
        assertTrue(sessions.tracksWindows(), "the operator must report each session it closes");
        sessions.closed(KEY, new Window(0, 10_000));
        assertEquals(new Window(5_000, 15_000), accept(sessions, 5_000).window(), "nothing left to merge with");
    }

    @Test
    void sessionsOfOtherKeysAreNotMerged() {
        accept(sessions, 0);
        byte[] other = "j".getBytes(StandardCharsets.UTF_8);
        WindowAssignment a = sessions.assign("j", other, 5_000).get(0);
        assertEquals(new Window(5_000, 15_000), a.window());
        assertTrue(a.merged().isEmpty());
    }
}
