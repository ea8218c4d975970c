package io.weir.examples;

import io.weir.streams.serde.JsonSerde;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * App events for the sessions example, replayed {@link #SPEED} times faster than they happened, so that
 * 30-minute pauses occur within a one-minute run. The replayed span ends at the run's planned end: a
 * one-minute run replays the two hours before it, and event times never run ahead of the wall clock
 * (which Kafka refuses, by default beyond an hour). The watermark lag therefore starts large and shrinks
 * towards the watermark delay as the run nears its end.
 *
 * <p>Each of {@link #USERS} users is active for 2 to 20 replayed minutes, then quiet for 10 to 90; each
 * event goes to an active user. {@link #OFFLINE_SHARE} of events come from a phone that was offline during
 * the user's previous activity and sends now what it recorded then: half of them fall inside that
 * activity (extending a session that may already be reported), half halfway through the pause after it
 * (joining that session and the current one into one, when the pause was shorter than two gaps).
 */
final class AppEventGenerator implements InputGenerator {

    static final int USERS = 500;
    static final int SPEED = 120;
    static final double OFFLINE_SHARE = 0.02;
    private static final long MINUTE = 60_000;
    private static final List<String> SCREENS = List.of("home", "search", "item", "basket", "pay");

    private final Random random;
    private final long durationMs;
    private final Serializer<AppEvent> serializer = JsonSerde.of(AppEvent.class).serializer();
    private final long[] activeStart = new long[USERS];
    private final long[] activeUntil = new long[USERS];
    private final long[] quietUntil = new long[USERS];
    private final long[] previousStart = new long[USERS];
    private final long[] previousUntil = new long[USERS];
    private long end = Long.MIN_VALUE;

    AppEventGenerator(long seed, Duration duration) {
        this.random = new Random(seed);
        this.durationMs = duration.toMillis();
    }

    @Override
    public List<ProducerRecord<byte[], byte[]>> next(long now, int due) {
        if (end == Long.MIN_VALUE) {
            end = now + durationMs;
            long replayStart = replayed(now);
            for (int u = 0; u < USERS; u++) {
                quietUntil[u] = replayStart + random.nextInt(30) * MINUTE;
            }
        }
        long replayed = replayed(now);
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>(due);
        for (int i = 0; i < due; i++) {
            int u = activeUser(replayed);
            if (u < 0) {
                break;
            }
            long at = random.nextDouble() < OFFLINE_SHARE && previousUntil[u] != 0 ? sentLate(u) : replayed;
            String user = String.format("user-%03d", u);
            out.add(InputGenerator.record(
                    UserSessions.EVENTS,
                    user,
                    at,
                    new AppEvent(user, SCREENS.get(random.nextInt(SCREENS.size())), at),
                    serializer));
        }
        return out;
    }

    /** The replayed time at wall-clock {@code now}: {@code end} at the run's end, {@link #SPEED} times slower back from it. */
    private long replayed(long now) {
        return end - (end - now) * SPEED;
    }

    /** When an event sent late by user {@code u}'s phone happened: in its previous activity, or the pause after it. */
    private long sentLate(int u) {
        if (random.nextBoolean()) {
            return previousStart[u] + (long) (random.nextDouble() * (previousUntil[u] - previousStart[u]));
        }
        return previousUntil[u] + (activeStart[u] - previousUntil[u]) / 2;
    }

    /** A user active at {@code replayed} (starting a new active period for one whose quiet time is over), or -1. */
    private int activeUser(long replayed) {
        int first = random.nextInt(USERS);
        for (int k = 0; k < USERS; k++) {
            int u = (first + k) % USERS;
            if (replayed < activeUntil[u]) {
                return u;
            }
            if (replayed >= quietUntil[u]) {
                previousStart[u] = activeStart[u];
                previousUntil[u] = activeUntil[u];
                activeStart[u] = replayed;
                activeUntil[u] = replayed + (2 + random.nextInt(19)) * MINUTE;
                quietUntil[u] = activeUntil[u] + (10 + random.nextInt(81)) * MINUTE;
                return u;
            }
        }
        return -1;
    }
}
