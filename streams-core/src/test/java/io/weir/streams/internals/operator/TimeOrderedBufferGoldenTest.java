package io.weir.streams.internals.operator;

import io.weir.streams.internals.testing.GoldenBytes;
import io.weir.streams.internals.testing.RecordingContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A time-ordered buffer's entries ({@code [time: 8, sign-flipped][sequence: 8]}, the held value), byte for
 * byte as the changelog carries them, and read back by a restored buffer: an aligned stream–table join's
 * waiting records.
 */
class TimeOrderedBufferGoldenTest {

    private static final String STORE = "waiting";

    @TempDir
    Path dir;

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private List<GoldenBytes.Entry> golden() {
        GoldenBytes golden = GoldenBytes.of("time-ordered-buffer");
        try (RecordingContext context = new RecordingContext(dir.resolve("written"), STORE)) {
            TimeOrderedBuffer buffer = new TimeOrderedBuffer(context.stores().cache(STORE));
            buffer.add(1_000, utf8("first"));
            buffer.add(-5, utf8("second"));
            buffer.add(1_000, utf8("third"));
            golden.addWrites(
                    GoldenBytes.commit(context.stores()).get(STORE),
                    "commit 1: \"second\" held until -5, sequence 1 (a negative time)",
                    "commit 1: \"first\" held until 1000, sequence 0",
                    "commit 1: \"third\" held until 1000, sequence 2");
            buffer.release(-5, (time, value) -> {});
            golden.addWrites(GoldenBytes.commit(context.stores()).get(STORE), "commit 2: \"second\" released at -5");
        }
        return golden.verify();
    }

    @Test
    void heldEntriesAreStoredAsTheGoldenBytes() {
        golden();
    }

    @Test
    void aBufferRestoredFromTheGoldenBytesReleasesInTimeThenArrivalOrder() {
        List<GoldenBytes.Entry> stored = golden();
        try (RecordingContext context = new RecordingContext(dir.resolve("restored"), STORE)) {
            GoldenBytes.restore(context.stores(), STORE, stored);
            TimeOrderedBuffer buffer = new TimeOrderedBuffer(context.stores().cache(STORE));
            assertEquals(2, buffer.size());
            List<String> released = new ArrayList<>();
            buffer.release(
                    Long.MAX_VALUE,
                    (time, value) -> released.add(time + " " + new String(value, StandardCharsets.UTF_8)));
            assertEquals(List.of("1000 first", "1000 third"), released);
        }
    }
}
