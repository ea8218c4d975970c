package io.weir.streams.internals.keyed;

import io.weir.streams.internals.testing.GoldenBytes;
import io.weir.streams.internals.testing.RecordingContext;
import io.weir.streams.time.TimeDomain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A keyed processor's timers ({@code [domain: 1 event time, 2 processing time][time: 8, sign-flipped][key
 * bytes]}, an empty value), byte for byte as the timer store's changelog carries them, and due in a
 * restored store as they were.
 */
class KeyedTimersGoldenTest {

    private static final String STORE = "process-timers";
    private static final byte[] USER = "user-1".getBytes(StandardCharsets.UTF_8);
    private static final byte[] EMPTY_KEY = new byte[0];

    @TempDir
    Path dir;

    private List<GoldenBytes.Entry> golden() {
        GoldenBytes golden = GoldenBytes.of("keyed-timers");
        try (RecordingContext context = new RecordingContext(dir.resolve("written"), STORE)) {
            KeyedTimers timers = new KeyedTimers(context.stores().cache(STORE));
            timers.register(TimeDomain.EVENT_TIME, 60_000, USER);
            timers.register(TimeDomain.EVENT_TIME, -1, EMPTY_KEY);
            timers.register(TimeDomain.PROCESSING_TIME, 1_700_000_000_000L, USER);
            golden.addWrites(
                    GoldenBytes.commit(context.stores()).get(STORE),
                    "commit 1: an event-time timer of an empty key at -1 (negative time)",
                    "commit 1: an event-time timer of \"user-1\" at 60000",
                    "commit 1: a processing-time timer of \"user-1\" at 1700000000000");
            timers.delete(TimeDomain.EVENT_TIME, 60_000, USER);
            golden.addWrites(
                    GoldenBytes.commit(context.stores()).get(STORE),
                    "commit 2: the event-time timer of \"user-1\" at 60000 deleted");
        }
        return golden.verify();
    }

    @Test
    void timersAreStoredAsTheGoldenBytes() {
        golden();
    }

    @Test
    void timersRestoredFromTheGoldenBytesAreDueAsTheyWere() {
        List<GoldenBytes.Entry> stored = golden();
        try (RecordingContext context = new RecordingContext(dir.resolve("restored"), STORE)) {
            GoldenBytes.restore(context.stores(), STORE, stored);
            KeyedTimers timers = new KeyedTimers(context.stores().cache(STORE));
            List<KeyedTimers.Timer> events = timers.beginRound(TimeDomain.EVENT_TIME, Long.MAX_VALUE);
            assertEquals(1, events.size(), "the deleted one is gone: " + events);
            assertEquals(-1, events.get(0).time());
            assertArrayEquals(EMPTY_KEY, events.get(0).key());
            timers.endRound(TimeDomain.EVENT_TIME);
            List<KeyedTimers.Timer> clock = timers.beginRound(TimeDomain.PROCESSING_TIME, 1_700_000_000_000L);
            assertEquals(1, clock.size());
            assertEquals(1_700_000_000_000L, clock.get(0).time());
            assertArrayEquals(USER, clock.get(0).key());
        }
    }
}
