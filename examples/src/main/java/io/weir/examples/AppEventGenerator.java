package io.weir.examples;

import io.weir.streams.serde.JsonSerde;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * App events for the sessions example, on a clock that runs {@link #SPEED} times faster than the wall clock
 * (from the first call on), so that 30-minute pauses happen in a one-minute run. Each of {@link #USERS} users
 * is active for 2 to 20 simulated minutes, then quiet for 10 to 90. 2% of events come from phones that were
 * offline: sent 5 to 40 simulated minutes after they happened.
 */
final class AppEventGenerator implements InputGenerator {

    static final int USERS = 500;
    static final int SPEED = 120;
    private static final long MINUTE = 60_000;
    private static final List<String> SCREENS = List.of("home", "search", "item", "basket", "pay");

    private final Random random;
    private final Serializer<AppEvent> serializer = JsonSerde.of(AppEvent.class).serializer();
    private final long[] activeUntil = new long[USERS];
    private final long[] quietUntil = new long[USERS];
    private long start = -1;

    AppEventGenerator(long seed) {
        this.random = new Random(seed);
    }

    @Override
    public List<ProducerRecord<byte[], byte[]>> next(long now, int due) {
        if (start < 0) {
            start = now;
            for (int u = 0; u < USERS; u++) {
                quietUntil[u] = now + random.nextInt(30) * MINUTE;
            }
        }
        long simulated = start + (now - start) * SPEED;
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>(due);
        for (int i = 0; i < due; i++) {
            int u = random.nextInt(USERS);
            if (simulated >= activeUntil[u]) {
                if (simulated < quietUntil[u]) {
                    continue;
                }
                activeUntil[u] = simulated + (2 + random.nextInt(19)) * MINUTE;
                quietUntil[u] = activeUntil[u] + (10 + random.nextInt(81)) * MINUTE;
            }
            long at = random.nextDouble() < 0.02 ? simulated - (5 + random.nextInt(36)) * MINUTE : simulated;
            String user = String.format("user-%03d", u);
            AppEvent event = new AppEvent(user, SCREENS.get(random.nextInt(SCREENS.size())), at);
            out.add(new ProducerRecord<>(UserSessions.EVENTS, null, at, user.getBytes(StandardCharsets.UTF_8),
                    serializer.serialize(UserSessions.EVENTS, event)));
        }
        return out;
    }
}
