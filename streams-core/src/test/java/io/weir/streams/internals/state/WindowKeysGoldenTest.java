package io.weir.streams.internals.state;

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
 * The keys of window stores ({@code [end][start][key]}, times sign-flipped), byte for byte: a window
 * aggregation's store and changelog, and (end alone) every expiry index.
 */
class WindowKeysGoldenTest {

    private record Key(String what, Window window, byte[] key) {}

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static final List<Key> KEYS = List.of(
            new Key("window [0, 60000) of key \"card-7\"", new Window(0, 60_000), utf8("card-7")),
            new Key(
                    "hopping window [-30000, 30000) of key \"k\" (a negative start)",
                    new Window(-30_000, 30_000),
                    utf8("k")),
            new Key("window [-120000, -60000) of an empty key", new Window(-120_000, -60_000), new byte[0]),
            new Key(
                    "global window [Long.MIN_VALUE, Long.MAX_VALUE) of key 0xFF",
                    new Window(Long.MIN_VALUE, Long.MAX_VALUE),
                    new byte[] {(byte) 0xFF}));

    /** The keys encoded now, compared with the fixture; the fixture's records. */
    private static List<GoldenBytes.Entry> golden() {
        GoldenBytes golden = GoldenBytes.of("window-keys");
        for (Key k : KEYS) {
            golden.add(k.what(), WindowKeys.encode(k.window().end(), k.window().start(), k.key()));
        }
        golden.add("the scan bound of windows ending at -1", WindowKeys.endBound(-1));
        golden.add("the scan bound of windows ending at 60000", WindowKeys.endBound(60_000));
        return golden.verify();
    }

    @Test
    void windowKeysAreStoredAsTheGoldenBytes() {
        List<GoldenBytes.Entry> stored = golden();
        for (int i = 0; i < KEYS.size(); i++) {
            Key k = KEYS.get(i);
            byte[] bytes = stored.get(i).bytes();
            assertEquals(k.window(), WindowKeys.window(bytes), k.what());
            assertEquals(k.window().end(), WindowKeys.end(bytes), k.what());
            assertEquals(k.window().start(), WindowKeys.start(bytes), k.what());
            assertArrayEquals(k.key(), WindowKeys.key(bytes), k.what());
            assertTrue(WindowKeys.hasKey(bytes, k.key()), k.what());
        }
        assertEquals(-1, WindowKeys.end(stored.get(KEYS.size()).bytes()));
        assertEquals(60_000, WindowKeys.end(stored.get(KEYS.size() + 1).bytes()));
    }

    @Test
    void theGoldenKeysSortByEndThenStartAsNumbers() {
        List<GoldenBytes.Entry> stored = golden();
        byte[] global = stored.get(3).bytes();
        byte[] negative = stored.get(2).bytes();
        byte[] hopping = stored.get(1).bytes();
        byte[] first = stored.get(0).bytes();
        assertTrue(Arrays.compareUnsigned(negative, hopping) < 0, "end -60000 before end 30000");
        assertTrue(Arrays.compareUnsigned(hopping, first) < 0, "end 30000 before end 60000");
        assertTrue(Arrays.compareUnsigned(first, global) < 0, "end 60000 before Long.MAX_VALUE");
    }
}
