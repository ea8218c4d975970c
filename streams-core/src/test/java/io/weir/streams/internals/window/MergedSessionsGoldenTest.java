package io.weir.streams.internals.window;

import io.weir.streams.internals.state.KeyTimeKeys;
import io.weir.streams.internals.testing.GoldenBytes;
import io.weir.streams.time.Window;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The merge log of a session aggregation ({@code [key length][key][start][end]}, times sign-flipped), byte
 * for byte: the aggregation writes it and a windowed table view reads it, in the same store and changelog.
 */
class MergedSessionsGoldenTest {

    private record Merged(String what, byte[] key, Window session) {}

    private static final byte[] K = "user-1".getBytes(StandardCharsets.UTF_8);

    private static final List<Merged> ENTRIES = List.of(
            new Merged("session [1000, 5000) of key \"user-1\"", K, new Window(1_000, 5_000)),
            new Merged("session [-3000, -1000) of key \"user-1\" (negative times)", K, new Window(-3_000, -1_000)),
            new Merged("a one-record session [0, 1) of an empty key", new byte[0], new Window(0, 1)));

    @Test
    void mergeLogEntriesAreStoredAsTheGoldenBytes() {
        GoldenBytes golden = GoldenBytes.of("merged-sessions");
        for (Merged m : ENTRIES) {
            golden.add(m.what(), MergedSessions.entry(m.key(), m.session()));
        }
        golden.add("the scan bound of key \"user-1\" from start 1000", MergedSessions.from(K, 1_000));
        List<GoldenBytes.Entry> stored = golden.verify();
        for (int i = 0; i < ENTRIES.size(); i++) {
            Merged m = ENTRIES.get(i);
            byte[] bytes = stored.get(i).bytes();
            assertEquals(m.session(), MergedSessions.window(bytes), m.what());
            assertArrayEquals(m.key(), KeyTimeKeys.key(bytes), m.what());
        }
        byte[] from = stored.get(ENTRIES.size()).bytes();
        assertTrue(
                Arrays.compareUnsigned(from, stored.get(0).bytes()) <= 0
                        && Arrays.compareUnsigned(stored.get(1).bytes(), from) < 0,
                "a key's entries from a start are the range from its bound");
    }
}
