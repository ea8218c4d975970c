package io.weir.streams.internals.table;

import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.internals.testing.GoldenBytes;
import io.weir.streams.internals.testing.RecordingContext;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.time.Window;
import io.weir.streams.time.Windowed;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A windowed aggregation's table view ({@code toTable()}), byte for byte as its changelogs carry it: the rows
 * (keyed by the windowed key serde's bytes, a table row as value) and the index of when each row's window
 * closes; read back by a restored view.
 */
class WindowRowsGoldenTest {

    private static final String ROWS = "window-table";
    private static final String CLOSES = ROWS + "-closes";
    private static final long LATENESS = 1_000;
    private static final Serde<Windowed<String>> KEYS = WindowedSerdes.of(Serdes.String());
    private static final Windowed<String> A = new Windowed<>("a", new Window(0, 60_000));
    private static final Windowed<String> B = new Windowed<>("b", new Window(-60_000, 0));

    private final TableRowCodec<Long> codec = new TableRowCodec<>(ROWS, Serdes.Long());

    @TempDir
    Path dir;

    private static WindowRowsProcessor<String, Long> processor(RecordingContext context) {
        WindowRowsProcessor<String, Long> rows = new WindowRowsProcessor<>(new WindowRowsProcessor.Settings<>(
                ROWS, CLOSES, null, "counts", LATENESS, Serdes.String(), KEYS, Serdes.Long(), false));
        rows.init(context);
        return rows;
    }

    private static Record<Windowed<String>, Long> pane(Windowed<String> key, Long value, long time) {
        return new Record<>(key, value, time, null, null);
    }

    private List<List<GoldenBytes.Entry>> golden() {
        GoldenBytes rows = GoldenBytes.of("window-rows");
        GoldenBytes closes = GoldenBytes.of("window-rows-closes");
        try (RecordingContext context = new RecordingContext(dir.resolve("written"), ROWS, CLOSES)) {
            WindowRowsProcessor<String, Long> view = processor(context);
            view.process(pane(A, 3L, 59_999));
            view.process(pane(B, 7L, -1));
            view.beforeCommit();
            var first = GoldenBytes.commit(context.stores());
            rows.addWrites(
                    first.get(ROWS),
                    "commit 1: key \"a\" window [0, 60000): 3 at 59999",
                    "commit 1: key \"b\" window [-60000, 0): 7 at -1 (negative times)");
            closes.addWrites(
                    first.get(CLOSES),
                    "commit 1: the row of \"b\" [-60000, 0) closes at -1 + 1000 = 999",
                    "commit 1: the row of \"a\" [0, 60000) closes at 59999 + 1000 = 60999");
            view.process(pane(A, null, 59_999));
            view.beforeCommit();
            var second = GoldenBytes.commit(context.stores());
            rows.addWrites(second.get(ROWS), "commit 2: key \"a\" window [0, 60000) deleted by a null pane");
            closes.addWrites(second.get(CLOSES), "commit 2: its close entry");
        }
        return List.of(rows.verify(), closes.verify());
    }

    @Test
    void windowRowsAreStoredAsTheGoldenBytes() {
        golden();
    }

    @Test
    void aViewRestoredFromTheGoldenBytesHoldsItsRowsUntilTheirWindowsClose() {
        List<List<GoldenBytes.Entry>> stored = golden();
        try (RecordingContext context = new RecordingContext(dir.resolve("restored"), ROWS, CLOSES)) {
            GoldenBytes.restore(context.stores(), ROWS, stored.get(0));
            GoldenBytes.restore(context.stores(), CLOSES, stored.get(1));
            WindowRowsProcessor<String, Long> view = processor(context);
            WriteBackCache rows = context.stores().cache(ROWS);
            byte[] b = KEYS.serializer().serialize(ROWS, B);
            assertNull(rows.get(KEYS.serializer().serialize(ROWS, A)));
            assertEquals(new TableRow<>(7L, -1, -1, Long.MIN_VALUE), codec.decode(rows.get(b)));
            context.watermark(998);
            view.beforeCommit();
            assertEquals(7L, codec.decode(rows.get(b)).value(), "open until 999");
            context.watermark(999);
            view.beforeCommit();
            assertNull(rows.get(b), "closed at its end plus the allowed lateness");
            assertEquals(List.of(), context.forwarded(), "a closing row leaves without a change downstream");
        }
    }
}
