package io.weir.examples;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.dsl.SessionWindows;
import io.weir.streams.serde.JsonSerde;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.time.WatermarkStrategy;

import java.time.Duration;

/**
 * App sessions: a user's events with no pause longer than {@link #GAP} form one session, counted.
 *
 * <ul>
 *   <li>Input: {@value #EVENTS}, {@link AppEvent}s keyed by user; the event time is {@code at}, the
 *       watermark trails the latest event by {@link #DELAY}.</li>
 *   <li>A session covers {@code [first event, last event + gap)}; it is reported (ON_TIME) when the
 *       watermark passes its end, that is once the user has been quiet for the gap.</li>
 *   <li>An event from a phone that was offline may arrive up to {@link #ALLOWED_LATENESS} late. It can
 *       extend a reported session or join two into one. Results are ACCUMULATING_AND_RETRACTING: each
 *       change first takes back what was said before (a record with header {@code weir.pane.retraction=true}
 *       and the old count), then gives the new count, so a downstream sum of events in sessions, or a count
 *       of sessions, stays right when two sessions merge.</li>
 *   <li>No session grows beyond {@link #MAX_SESSION}: a user who never pauses that long gets a new session
 *       then, so state stays bounded.</li>
 * </ul>
 */
public final class UserSessions {

    public static final String EVENTS = "app-events";
    public static final String SESSIONS_TOPIC = "user-sessions";
    public static final String SESSIONS = "events-per-session";

    public static final Duration GAP = Duration.ofMinutes(30);
    public static final Duration DELAY = Duration.ofSeconds(10);
    public static final Duration ALLOWED_LATENESS = Duration.ofHours(1);
    public static final Duration MAX_SESSION = Duration.ofHours(12);

    private UserSessions() {}

    public static Topology topology() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        EVENTS,
                        Consumed.with(Serdes.String(), JsonSerde.of(AppEvent.class))
                                .withTimestamps(AppEvent::at)
                                .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(DELAY)
                                        .withIdleness(Duration.ofSeconds(30))))
                .groupByKey()
                .windowedBy(SessionWindows.withGap(GAP)
                        .withAllowedLateness(ALLOWED_LATENESS)
                        .withMaxSessionLength(MAX_SESSION))
                .withRefinement(Refinement.ACCUMULATING_AND_RETRACTING)
                .count(Materialized.as(SESSIONS))
                .toStream()
                .to(SESSIONS_TOPIC, Produced.with(WindowedSerdes.string(), Serdes.Long()));
        return builder.build();
    }
}
