package io.weir.streams.internals.dedup;

import io.weir.streams.internals.state.KeyTimeKeys;
import io.weir.streams.internals.testing.GoldenBytes;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The keys of the deduplication store ({@code [key length][key][id length][id][time: 8, sign-flipped]}),
 * byte for byte: one per record that passed, in the store and its changelog.
 */
class DedupKeysGoldenTest {

    private record Passed(String what, byte[] key, byte[] id, long time) {}

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static final List<Passed> PASSED = List.of(
            new Passed(
                    "key \"order-1\", id \"evt-9\", at 1700000000000",
                    utf8("order-1"),
                    utf8("evt-9"),
                    1_700_000_000_000L),
            new Passed("key \"k\", id \"i\", at -250 (a negative time)", utf8("k"), utf8("i"), -250),
            new Passed("key \"k\", an empty id (by key alone), at 0", utf8("k"), new byte[0], 0),
            new Passed(
                    "an empty key, id 0xFF, at Long.MIN_VALUE", new byte[0], new byte[] {(byte) 0xFF}, Long.MIN_VALUE));

    @Test
    void dedupKeysAreStoredAsTheGoldenBytes() {
        GoldenBytes golden = GoldenBytes.of("dedup-keys");
        for (Passed p : PASSED) {
            golden.add(p.what(), DedupKeys.at(DedupKeys.prefix(p.key(), p.id()), p.time()));
        }
        List<GoldenBytes.Entry> stored = golden.verify();
        for (int i = 0; i < PASSED.size(); i++) {
            Passed p = PASSED.get(i);
            byte[] bytes = stored.get(i).bytes();
            assertEquals(p.time(), KeyTimeKeys.time(bytes), p.what());
            assertArrayEquals(p.key(), KeyTimeKeys.key(bytes), p.what());
            int idAt = 4 + p.key().length;
            int idLength = ByteBuffer.wrap(bytes, idAt, 4).getInt();
            assertArrayEquals(p.id(), Arrays.copyOfRange(bytes, idAt + 4, idAt + 4 + idLength), p.what());
            assertEquals(idAt + 4 + idLength + 8, bytes.length, p.what());
        }
    }
}
