package io.weir.streams.internals.window;

import io.weir.streams.internals.state.StoreBatch;
import io.weir.streams.internals.testing.GoldenBytes;
import io.weir.streams.internals.testing.RecordingContext;
import io.weir.streams.time.Window;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The per-key session index of a session aggregation ({@code [key length][key][end][start]}, value 1 for a
 * sealed session), byte for byte as its changelog carries it, and read back by a restored index.
 */
class SessionIndexGoldenTest {

    private static final String STORE = "sessions";
    private static final byte[] USER = "user-1".getBytes(StandardCharsets.UTF_8);
    private static final byte[] EMPTY_KEY = new byte[0];

    @TempDir
    Path dir;

    private List<GoldenBytes.Entry> golden() {
        GoldenBytes golden = GoldenBytes.of("session-index");
        try (RecordingContext context = new RecordingContext(dir.resolve("written"), STORE)) {
            SessionIndex index = new SessionIndex(context.stores().cache(STORE), Long.MAX_VALUE);
            index.put(USER, new Window(1_000, 5_000), false);
            index.put(USER, new Window(-3_000, -1_000), true);
            index.put(EMPTY_KEY, new Window(0, 1), false);
            Map<String, List<StoreBatch.Put>> first = GoldenBytes.commit(context.stores());
            golden.addWrites(
                    first.get(STORE),
                    "commit 1: an empty key's session [0, 1), not sealed",
                    "commit 1: session [-3000, -1000) of \"user-1\", sealed (negative times)",
                    "commit 1: session [1000, 5000) of \"user-1\", not sealed");
            index.remove(USER, new Window(1_000, 5_000));
            golden.addWrites(
                    GoldenBytes.commit(context.stores()).get(STORE),
                    "commit 2: session [1000, 5000) of \"user-1\" removed");
        }
        return golden.verify();
    }

    @Test
    void sessionIndexEntriesAreStoredAsTheGoldenBytes() {
        golden();
    }

    @Test
    void anIndexRestoredFromTheGoldenBytesFindsTheSessions() {
        List<GoldenBytes.Entry> stored = golden();
        try (RecordingContext context = new RecordingContext(dir.resolve("restored"), STORE)) {
            GoldenBytes.restore(context.stores(), STORE, stored);
            SessionIndex index = new SessionIndex(context.stores().cache(STORE), Long.MAX_VALUE);
            assertEquals(
                    List.of(new SessionIndex.Session(new Window(-3_000, -1_000), true)),
                    index.overlapping(USER, -10_000, 10_000));
            assertEquals(
                    List.of(new SessionIndex.Session(new Window(0, 1), false)),
                    index.overlapping(EMPTY_KEY, -10_000, 10_000));
        }
    }
}
