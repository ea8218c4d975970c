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
 * An expiry index's entries ({@code [expiry: 8, sign-flipped][entry key]}, empty value), byte for byte as
 * the changelog carries them, and read back by a restored index: deduplication, table TTL, versioned tables'
 * history and windowed tables' closes keep one.
 */
class ExpiryIndexGoldenTest {

    private static final String STORE = "expiry";

    @TempDir
    Path dir;

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private List<GoldenBytes.Entry> golden() {
        GoldenBytes golden = GoldenBytes.of("expiry-index");
        try (RecordingContext context = new RecordingContext(dir.resolve("written"), STORE)) {
            ExpiryIndex index = new ExpiryIndex(context.stores().cache(STORE));
            index.add(1_000, utf8("a"));
            index.add(-5, utf8("b"));
            index.add(1_000, utf8("c"));
            index.add(2_000, utf8("d"));
            golden.addWrites(
                    GoldenBytes.commit(context.stores()).get(STORE),
                    "commit 1: entry \"b\" expires at -5 (a negative time)",
                    "commit 1: entry \"a\" expires at 1000",
                    "commit 1: entry \"c\" expires at 1000",
                    "commit 1: entry \"d\" expires at 2000");
            index.expire(1_000, key -> {});
            golden.addWrites(
                    GoldenBytes.commit(context.stores()).get(STORE),
                    "commit 2: \"b\" expired at 1000",
                    "commit 2: \"a\" expired at 1000",
                    "commit 2: \"c\" expired at 1000");
        }
        return golden.verify();
    }

    @Test
    void expiryIndexEntriesAreStoredAsTheGoldenBytes() {
        golden();
    }

    @Test
    void anIndexRestoredFromTheGoldenBytesExpiresWhatIsLeft() {
        List<GoldenBytes.Entry> stored = golden();
        try (RecordingContext context = new RecordingContext(dir.resolve("restored"), STORE)) {
            GoldenBytes.restore(context.stores(), STORE, stored);
            ExpiryIndex index = new ExpiryIndex(context.stores().cache(STORE));
            assertEquals(1, index.size());
            List<String> expired = new ArrayList<>();
            index.expire(1_999, key -> expired.add(new String(key, StandardCharsets.UTF_8)));
            assertEquals(List.of(), expired, "\"d\" expires at 2000, not before");
            index.expire(2_000, key -> expired.add(new String(key, StandardCharsets.UTF_8)));
            assertEquals(List.of("d"), expired);
        }
    }
}
