package io.weir.streams.internals.state;

import io.weir.streams.internals.testing.GoldenBytes;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The keys of entries kept per key and event time ({@code [key length: int][key][time: 8, sign-flipped]}),
 * byte for byte: a versioned table's history, deduplication and the join buffers hold them.
 */
class KeyTimeKeysGoldenTest {

    private record Key(String what, byte[] key, long time) {}

    private static final List<Key> KEYS = List.of(
            new Key("key \"card-7\" at 1700000000000", "card-7".getBytes(StandardCharsets.UTF_8), 1_700_000_000_000L),
            new Key("key \"k\" at -1 (a negative time)", "k".getBytes(StandardCharsets.UTF_8), -1),
            new Key("an empty key at 0", new byte[0], 0),
            new Key("key 0x00FF at Long.MIN_VALUE", new byte[] {0, (byte) 0xFF}, Long.MIN_VALUE),
            new Key("key 0x00FF at Long.MAX_VALUE", new byte[] {0, (byte) 0xFF}, Long.MAX_VALUE));

    @Test
    void keyTimeKeysAreStoredAsTheGoldenBytes() {
        GoldenBytes golden = GoldenBytes.of("key-time-keys");
        for (Key k : KEYS) {
            golden.add(k.what(), KeyTimeKeys.at(KeyTimeKeys.prefix(k.key()), k.time()));
        }
        golden.add(
                "the prefix of key \"card-7\": every entry of it starts so",
                KeyTimeKeys.prefix(KEYS.get(0).key()));
        List<GoldenBytes.Entry> stored = golden.verify();
        for (int i = 0; i < KEYS.size(); i++) {
            Key k = KEYS.get(i);
            byte[] bytes = stored.get(i).bytes();
            assertEquals(k.time(), KeyTimeKeys.time(bytes), k.what());
            assertArrayEquals(k.key(), KeyTimeKeys.key(bytes), k.what());
        }
        assertArrayEquals(
                KEYS.get(0).key(), KeyTimeKeys.key(stored.get(KEYS.size()).bytes()));
    }
}
