package io.weir.streams.internals.join;

import io.weir.streams.internals.operator.BufferedRecordCodec;
import io.weir.streams.internals.testing.GoldenBytes;
import io.weir.streams.internals.testing.RecordingContext;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A stream–stream join's buffer, byte for byte as the changelogs carry it: the buffer's entries ({@code
 * [segment: 8, sign-flipped][key length][key][time: 8, sign-flipped][sequence: 8]}, value {@code [matched:
 * 1][held record]}) and an outer side's index of unmatched records; read back by a restored buffer.
 */
class JoinBufferGoldenTest {

    private static final String STORE = "left";
    private static final String UNMATCHED = "left-unmatched";
    private static final long SEGMENT_MS = 1_000;
    private static final long KEEP = 500;
    private static final byte[] K = utf8("k");
    private static final byte[] OTHER = utf8("other");

    private static final BufferedRecordCodec<String, String> CODEC =
            new BufferedRecordCodec<>(STORE, Serdes.String(), Serdes.String());

    @TempDir
    Path dir;

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] record(String value) {
        return CODEC.encode(null, value, new RecordHeaders());
    }

    private static String value(byte[] record) {
        return CODEC.decode(record).value();
    }

    /** The buffer's fixture and the unmatched index's. */
    private List<List<GoldenBytes.Entry>> golden() {
        GoldenBytes buffer = GoldenBytes.of("join-buffer");
        GoldenBytes unmatched = GoldenBytes.of("join-buffer-unmatched");
        try (RecordingContext context = new RecordingContext(dir.resolve("written"), STORE, UNMATCHED)) {
            JoinBuffer side = JoinBuffer.own(
                    context.stores().cache(STORE), context.stores().cache(UNMATCHED), SEGMENT_MS, KEEP, Long.MIN_VALUE);
            side.add(K, 1_500, record("k1"), false);
            side.add(K, 1_500, record("k2"), true);
            side.add(K, -200, record("k3"), false);
            side.add(OTHER, 2_500, record("o1"), false);
            var first = GoldenBytes.commit(context.stores());
            buffer.addWrites(
                    first.get(STORE),
                    "commit 1: \"k3\" of key \"k\" at -200 (segment -1), sequence 2, unmatched",
                    "commit 1: \"k1\" of key \"k\" at 1500 (segment 1), sequence 0, unmatched",
                    "commit 1: \"k2\" of key \"k\" at 1500 (segment 1), sequence 1, matched",
                    "commit 1: \"o1\" of key \"other\" at 2500 (segment 2), sequence 3, unmatched");
            unmatched.addWrites(
                    first.get(UNMATCHED),
                    "commit 1: \"k3\" leaves unmatched at -200 + 500 = 300",
                    "commit 1: \"k1\" leaves unmatched at 1500 + 500 = 2000",
                    "commit 1: \"o1\" leaves unmatched at 2500 + 500 = 3000");
            side.match(K, 1_500, 1_500, true, (time, held) -> {});
            var second = GoldenBytes.commit(context.stores());
            buffer.addWrites(second.get(STORE), "commit 2: \"k1\" of key \"k\" at 1500 marked matched");
            unmatched.addWrites(second.get(UNMATCHED));
            side.expire(600, (key, time, held) -> {});
            var third = GoldenBytes.commit(context.stores());
            buffer.addWrites(third.get(STORE));
            unmatched.addWrites(
                    third.get(UNMATCHED),
                    "commit 3: \"k3\" left unmatched at watermark 600 (its segment range-deleted)");
        }
        return List.of(buffer.verify(), unmatched.verify());
    }

    @Test
    void bufferedRecordsAreStoredAsTheGoldenBytes() {
        golden();
    }

    @Test
    void aBufferRestoredFromTheGoldenBytesMatchesAndExpiresWhatItHeld() {
        List<List<GoldenBytes.Entry>> stored = golden();
        try (RecordingContext context = new RecordingContext(dir.resolve("restored"), STORE, UNMATCHED)) {
            GoldenBytes.restore(context.stores(), STORE, stored.get(0));
            GoldenBytes.restore(context.stores(), UNMATCHED, stored.get(1));
            // The changelog has no range deletes: the restored watermark drops the segment it had passed.
            JoinBuffer side = JoinBuffer.own(
                    context.stores().cache(STORE), context.stores().cache(UNMATCHED), SEGMENT_MS, KEEP, 600);
            assertEquals(3, side.size());
            List<String> matched = new ArrayList<>();
            side.match(K, -1_000, 3_000, false, (time, held) -> matched.add(value(held) + "@" + time));
            assertEquals(List.of("k1@1500", "k2@1500"), matched);
            List<String> left = new ArrayList<>();
            side.expire(
                    3_000,
                    (key, time, held) ->
                            left.add(new String(key, StandardCharsets.UTF_8) + ":" + value(held) + "@" + time));
            assertEquals(List.of("other:o1@2500"), left, "k1 was matched: it leaves without a null result");
        }
    }
}
