package io.weir.streams.test.reference;

import io.weir.streams.test.reference.WindowShape.Session;
import io.weir.streams.test.reference.WindowShape.Sliding;
import io.weir.streams.test.reference.WindowShape.Tumbling;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The reference model on small streams worked out by hand from the event-time contract, so that the
 * property suite compares Weir with something known to be right. Processing time starts at 0; each
 * record is {@code k=1}.
 */
class ReferenceModelTest {

    private static final List<String> ONE_TOPIC = List.of("events");
    private static final List<String> TWO_TOPICS = List.of("events-a", "events-b");

    @Test
    void onTimeThenLatePanesThenADropWithinAllowedLateness() {
        Scenario scenario =
                Scenario.of(new Tumbling(10)).lateness(5).withLateTopic().build();
        Outcome outcome = run(
                scenario,
                ONE_TOPIC,
                arrival("events", 1, 1), // W = -inf
                arrival("events", 3, 2), // W = 0
                arrival("events", 12, 3), // W = 2; then W = 11: [0,10) fires
                arrival("events", 4, 4), // W = 11 >= 9: late, added
                arrival("events", 20, 5), // W = 11; then W = 19: [10,20) fires
                arrival("events", 5, 6), // W = 19 >= 9 + 5: dropped
                arrival("events", 15, 7)); // W = 19 >= 19: late, added
        assertEquals(
                List.of(
                        "k@[0,10) value=2 ts=9 ON_TIME #0",
                        "k@[0,10) value=3 ts=9 LATE #1",
                        "k@[10,20) value=1 ts=19 ON_TIME #0",
                        "k@[10,20) value=2 ts=19 LATE #1",
                        "k@[20,30) value=1 ts=29 ON_TIME #0 final"),
                panes(outcome));
        assertEquals(List.of("k=1 from events[0]@5 LATE window [0,10) W=19 t=5 ts=5"), refused(outcome));
        assertEquals(new Outcome.Counters(2, 1, 0, 3, 2, 1, 0), outcome.counters());
    }

    @Test
    void anIdlePartitionStopsHoldingTheWatermarkBack() {
        Scenario scenario = Scenario.of(new Tumbling(10)).idleness(50).build();
        Outcome outcome = run(
                scenario,
                TWO_TOPICS,
                arrival("events-a", 5, 10), // W = -inf: events-b has no record and is not idle yet
                arrival("events-a", 15, 60), // both idle at 60; after it, W = W(events-a) = 14: [0,10) fires
                arrival("events-b", 7, 61)); // W = 14: dropped; W(events-b) = 6 cannot move W back
        assertEquals(
                List.of("k@[0,10) value=1 ts=9 ON_TIME #0 final", "k@[10,20) value=1 ts=19 ON_TIME #0 final"),
                panes(outcome));
        assertEquals(new Outcome.Counters(0, 1, 0, 2, 0, 0, 0), outcome.counters());
    }

    @Test
    void withoutIdlenessASilentPartitionHoldsTheWatermarkUntilTheEnd() {
        Scenario scenario = Scenario.of(new Tumbling(10)).build();
        Outcome outcome = run(
                scenario,
                TWO_TOPICS,
                arrival("events-a", 5, 10),
                arrival("events-a", 15, 60),
                arrival("events-b", 7, 61)); // W = -inf: on time; then W = min(14, 6) = 6
        assertEquals(
                List.of("k@[0,10) value=2 ts=9 ON_TIME #0 final", "k@[10,20) value=1 ts=19 ON_TIME #0 final"),
                panes(outcome));
    }

    @Test
    void aWindowWithNoDataBeforeTheWatermarkPassedItsEndStartsWithALatePane() {
        Scenario scenario = Scenario.of(new Tumbling(10)).lateness(20).build();
        Outcome outcome = run(
                scenario,
                ONE_TOPIC,
                arrival("events", 25, 1), // W = 24 after it
                arrival("events", 3, 2)); // W = 24 >= 9: late, into a window that had no data
        assertEquals(
                List.of("k@[0,10) value=1 ts=9 LATE #0", "k@[20,30) value=1 ts=29 ON_TIME #0 final"), panes(outcome));
    }

    @Test
    void aFutureRecordIsRefusedAndDoesNotMoveTheWatermark() {
        Scenario scenario =
                Scenario.of(new Tumbling(10)).maxFutureSkew(100).withLateTopic().build();
        Outcome outcome = run(
                scenario,
                ONE_TOPIC,
                arrival("events", 500, 10), // 500 > 10 + 100
                arrival("events", 50, 20)); // W = -inf still
        assertEquals(List.of("k@[50,60) value=1 ts=59 ON_TIME #0 final"), panes(outcome));
        assertEquals(
                List.of("k=1 from events[0]@0 FUTURE_TIMESTAMP W=" + Long.MIN_VALUE + " t=500 ts=500"),
                refused(outcome));
        assertEquals(new Outcome.Counters(0, 0, 1, 1, 0, 1, 0), outcome.counters());
    }

    @Test
    void aLateSlidingRecordCreatesItsRightWindowWithALatePane() {
        Scenario scenario = Scenario.of(new Sliding(20)).lateness(30).build();
        Outcome outcome = run(
                scenario,
                ONE_TOPIC,
                arrival("events", 100, 1),
                arrival("events", 120, 2), // W = 99; then W = 119: [80,100] fires
                arrival("events", 150, 3), // W = 119; then W = 149: [100,120] and [101,121] fire
                arrival("events", 105, 4)); // W = 149: into [100,120] and [101,121] late, [85,105] closed,
        // and its right window [106,126] (holding 120) appears late
        assertEquals(
                List.of(
                        "k@[80,101) value=1 ts=100 ON_TIME #0",
                        "k@[100,121) value=2 ts=120 ON_TIME #0",
                        "k@[100,121) value=3 ts=120 LATE #1",
                        "k@[101,122) value=1 ts=121 ON_TIME #0",
                        "k@[101,122) value=2 ts=121 LATE #1",
                        "k@[106,127) value=1 ts=126 LATE #0",
                        "k@[130,151) value=1 ts=150 ON_TIME #0 final"),
                panes(outcome));
        assertEquals(new Outcome.Counters(2, 1, 0, 4, 3, 0, 0), outcome.counters());
    }

    @Test
    void aLateRecordBridgingTwoSessionsMergesThemIntoANewWindow() {
        Scenario scenario = Scenario.of(new Session(10, 0)).lateness(20).build();
        Outcome outcome = run(
                scenario,
                ONE_TOPIC,
                arrival("events", 0, 1), // W = -inf: [0,10)
                arrival("events", 15, 2), // W = -1: [15,25); then W = 14: [0,10) fires
                arrival("events", 8, 3), // W = 14: [8,18) bridges [0,10) and [15,25) into the new [0,25)
                arrival("events", 40, 4), // W = 14: [40,50); then W = 39: [0,25) fires
                arrival("events", 20, 5)); // W = 39: [20,30) stretches [0,25) into the new [0,30), late
        assertEquals(
                List.of(
                        "k@[0,10) value=1 ts=9 ON_TIME #0",
                        "k@[0,25) value=3 ts=24 ON_TIME #0",
                        "k@[0,30) value=4 ts=29 LATE #0",
                        "k@[40,50) value=1 ts=49 ON_TIME #0 final"),
                panes(outcome));
        assertEquals(new Outcome.Counters(1, 0, 0, 3, 1, 0, 1), outcome.counters());
    }

    @Test
    void aClosedSessionTakesNoMoreRecords() {
        Scenario scenario = Scenario.of(new Session(30, 0)).lateness(10).build();
        Outcome outcome = run(
                scenario,
                ONE_TOPIC,
                arrival("events", 0, 1), // W = -inf: [0,30)
                arrival("events", 50, 2), // W = -1: [50,80); then W = 49: [0,30) fires, final, and closes
                arrival("events", 19, 3), // W = 49: [19,49) is a session of its own (49 < 50: no touch), late
                arrival("events", 5, 4), // W = 49: [5,35) stretches it into the new [5,49), late
                arrival("events", 50, 5)); // W = 49: [50,80) takes it as it is
        assertEquals(
                List.of(
                        "k@[0,30) value=1 ts=29 ON_TIME #0 final",
                        "k@[5,49) value=2 ts=48 LATE #0",
                        "k@[19,49) value=1 ts=48 LATE #0",
                        "k@[50,80) value=2 ts=79 ON_TIME #0 final"),
                panes(outcome));
        assertEquals(new Outcome.Counters(2, 0, 0, 2, 2, 0, 0), outcome.counters());
    }

    @Test
    void aCappedSessionIsSealedButStillFires() {
        Scenario scenario = Scenario.of(new Session(10, 25)).withLateTopic().build();
        ReferenceModel model = model(
                scenario,
                ONE_TOPIC,
                arrival("events", 30, 1), // W = -inf: [30,40)
                arrival("events", 38, 2), // W = 29: [30,48)
                arrival("events", 45, 3), // W = 37: [30,55), 25 long: at the cap
                arrival("events", 25, 4), // W = 44: [25,55) is too long, and [25,35) too late: refused,
                // sealing nothing
                arrival("events", 44, 5), // W = 44: [30,55) takes it
                arrival("events", 52, 6), // W = 44: [30,62) is too long: [30,55) is sealed, [52,62) opens
                arrival("events", 50, 7), // W = 51: [50,60) stretches [52,62) (not the sealed session)
                arrival("events", 70, 8)); // W = 51: [70,80); then W = 69: [30,55) and [50,62) fire
        Outcome outcome = model.outcome();
        assertEquals(
                List.of(
                        "k@[30,55) value=4 ts=54 ON_TIME #0 final",
                        "k@[50,62) value=2 ts=61 ON_TIME #0 final",
                        "k@[70,80) value=1 ts=79 ON_TIME #0 final"),
                panes(outcome));
        assertEquals(List.of("k=1 from events[0]@3 LATE window [25,35) W=44 t=25 ts=25"), refused(outcome));
        assertEquals(new Outcome.Counters(0, 1, 0, 3, 0, 1, 0), outcome.counters());
        assertEquals(1, model.sessionsSealed());
    }

    private static StreamStep arrival(String topic, long eventTime, long arrivalTime) {
        return new StreamStep.Arrival(new InputRecord("k", 1, topic, 0, eventTime, arrivalTime));
    }

    private static Outcome run(Scenario scenario, List<String> topics, StreamStep... steps) {
        return model(scenario, topics, steps).outcome();
    }

    private static ReferenceModel model(Scenario scenario, List<String> topics, StreamStep... steps) {
        return ReferenceModel.run(scenario, new GeneratedStream(topics, 1, 0, List.of(steps)));
    }

    private static List<String> panes(Outcome outcome) {
        return outcome.panes().stream().map(Pane::toString).toList();
    }

    private static List<String> refused(Outcome outcome) {
        return outcome.refused().stream().map(RefusedRecord::toString).toList();
    }
}
