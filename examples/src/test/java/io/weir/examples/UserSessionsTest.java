package io.weir.examples;

import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.serde.JsonSerde;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.time.Window;
import io.weir.streams.time.Windowed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.weir.streams.test.Times.millis;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The app-sessions example on the TestDriver: 30-minute gap, retracting results. */
class UserSessionsTest {

    private final TestDriver driver = new TestDriver(UserSessions.topology());
    private final TestInputTopic<String, AppEvent> events =
            driver.input(UserSessions.EVENTS, Serdes.String(), JsonSerde.of(AppEvent.class));
    private final TestOutputTopic<Windowed<String>, Long> sessions =
            driver.output(UserSessions.SESSIONS_TOPIC, WindowedSerdes.string(), Serdes.Long());

    @AfterEach
    void close() {
        driver.close();
    }

    private void event(String user, String time) {
        events.pipe(user, new AppEvent(user, "home", millis(time)), millis(time));
    }

    private static Windowed<String> session(String user, String first, String last) {
        return new Windowed<>(user, new Window(millis(first), millis(last) + UserSessions.GAP.toMillis()));
    }

    @Test
    void eventsWithoutAThirtyMinutePauseFormOneSessionReportedWhenTheUserGoesQuiet() {
        event("alice", "09:00:00");
        event("alice", "09:20:00");
        event("alice", "09:45:00");
        event("bob", "10:15:09");
        assertTrue(sessions.isEmpty(), "alice's session ends at 10:15: the watermark is at 10:14:58.999");

        event("bob", "10:15:10");

        OutputRecord<Windowed<String>, Long> alice = sessions.readOne();
        assertEquals(session("alice", "09:00:00", "09:45:00"), alice.key());
        assertEquals(3L, alice.value());
        assertEquals(PaneInfo.Timing.ON_TIME, alice.pane().orElseThrow().timing());
    }

    @Test
    void aLateEventThatBridgesTwoSessionsRetractsBothAndReportsTheMergedOne() {
        event("alice", "09:00:00");
        event("alice", "09:10:00");
        event("alice", "10:00:00");
        event("bob", "10:30:10");
        List<OutputRecord<Windowed<String>, Long>> before = sessions.readAll();
        assertEquals(
                2,
                before.size(),
                "two sessions of alice, 09:00–09:40 and 10:00–10:30, both reported on time "
                        + "and both still within their hour of allowed lateness");

        event("alice", "09:35:00");

        List<OutputRecord<Windowed<String>, Long>> after = sessions.readAll();
        assertEquals(3, after.size(), "two retractions, then the merged session");
        assertTrue(after.get(0).pane().orElseThrow().isRetraction());
        assertTrue(after.get(1).pane().orElseThrow().isRetraction());
        OutputRecord<Windowed<String>, Long> merged = after.get(2);
        assertFalse(merged.pane().orElseThrow().isRetraction());
        assertEquals(session("alice", "09:00:00", "10:00:00"), merged.key());
        assertEquals(4L, merged.value());
        assertEquals(PaneInfo.Timing.LATE, merged.pane().orElseThrow().timing());

        Map<String, Long> sessionsPerUser = new HashMap<>();
        Map<String, Long> eventsPerUser = new HashMap<>();
        for (OutputRecord<Windowed<String>, Long> r : concat(before, after)) {
            int sign = r.pane().orElseThrow().isRetraction() ? -1 : 1;
            sessionsPerUser.merge(r.key().key(), (long) sign, Long::sum);
            eventsPerUser.merge(r.key().key(), sign * r.value(), Long::sum);
        }
        assertEquals(
                Map.of("alice", 1L), sessionsPerUser, "a downstream count that applies retractions sees one session");
        assertEquals(Map.of("alice", 4L), eventsPerUser);
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
