package io.weir.streams.internals.window;

import io.weir.streams.internals.operator.Aggregation;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.testing.GoldenBytes;
import io.weir.streams.internals.testing.RecordingContext;
import io.weir.streams.time.Window;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The records a sliding-window aggregation keeps per key ({@code [0][key length][key][t]} holding {@code
 * [count: int]([value length: int, -1 for null][value])*}, and the time index {@code [1][t][key length][key]}
 * with an empty value), byte for byte as its changelog carries them, and read back by a restored assigner.
 */
class SlidingWindowRecordsGoldenTest {

    private static final String STORE = "sliding-records";
    private static final long DIFFERENCE = 1_000;
    private static final Aggregation<String, Long, Long> SUM =
            Aggregation.of(() -> 0L, (key, value, sum) -> sum + (value == null ? 100 : value), (key, a, b) -> a + b);

    @TempDir
    Path dir;

    private static SlidingWindowAssigner<String, Long, Long> assigner(RecordingContext context) {
        SlidingWindowAssigner<String, Long, Long> assigner =
                new SlidingWindowAssigner<>(DIFFERENCE, 0, STORE, Serdes.Long());
        assigner.init(context);
        return assigner;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private List<GoldenBytes.Entry> golden() {
        GoldenBytes golden = GoldenBytes.of("sliding-window-records");
        try (RecordingContext context = new RecordingContext(dir.resolve("written"), STORE)) {
            SlidingWindowAssigner<String, Long, Long> assigner = assigner(context);
            assigner.offered(utf8("a"), new Record<>("a", 5L, 1_000, null, null), Long.MIN_VALUE);
            assigner.offered(utf8("a"), new Record<>("a", 7L, 1_000, null, null), Long.MIN_VALUE);
            assigner.offered(utf8("b"), new Record<>("b", null, -500, null, null), Long.MIN_VALUE);
            golden.addWrites(
                    GoldenBytes.commit(context.stores()).get(STORE),
                    "commit 1: the records of \"a\" at 1000: two, values 5 and 7",
                    "commit 1: the records of \"b\" at -500: one, a null value (length -1; negative time)",
                    "commit 1: the time index entry of \"b\" at -500",
                    "commit 1: the time index entry of \"a\" at 1000");
        }
        return golden.verify();
    }

    @Test
    void keptRecordsAreStoredAsTheGoldenBytes() {
        golden();
    }

    @Test
    void anAssignerRestoredFromTheGoldenBytesFoldsTheKeptRecordsIntoNewWindows() {
        List<GoldenBytes.Entry> stored = golden();
        try (RecordingContext context = new RecordingContext(dir.resolve("restored"), STORE)) {
            GoldenBytes.restore(context.stores(), STORE, stored);
            SlidingWindowAssigner<String, Long, Long> assigner = assigner(context);
            assigner.assign("a", utf8("a"), 1_500);
            assertEquals(12L, assigner.initial("a", new Window(500, 1_501), SUM), "5 + 7, both kept at 1000");
            assigner.assign("b", utf8("b"), 0);
            assertEquals(100L, assigner.initial("b", new Window(-1_000, 1), SUM), "the null value read back");
        }
    }
}
