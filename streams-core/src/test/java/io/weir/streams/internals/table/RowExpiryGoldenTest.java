package io.weir.streams.internals.table;

import io.weir.streams.WeirMetrics;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.internals.testing.GoldenBytes;
import io.weir.streams.internals.testing.RecordingContext;
import io.weir.streams.time.TimeDomain;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A table with a time-to-live, byte for byte as its changelogs carry it: the rows (with the update time for
 * a processing-time TTL) and the TTL index ({@code [expiry: 8, sign-flipped][row key]}); read back by a
 * restored expiry.
 */
class RowExpiryGoldenTest {

    private static final String ROWS = "rows";
    private static final String TTL = TimeToLive.indexStoreOf(ROWS);
    private static final long T = 1_700_000_000_000L;
    private static final byte[] A = "a".getBytes(StandardCharsets.UTF_8);
    private static final byte[] B = "b".getBytes(StandardCharsets.UTF_8);

    private final TableRowCodec<String> codec = new TableRowCodec<>(ROWS, Serdes.String());

    @TempDir
    Path dir;

    /** A table over a context's stores, changed as a table operator changes it. */
    private final class Table {
        final WriteBackCache store;
        final ChangeEmitter<String, String> changes;
        final RowExpiry<String, String> expiry;

        Table(RecordingContext context, TimeDomain domain) {
            store = context.stores().cache(ROWS);
            changes = new ChangeEmitter<>(context, RowFormat.of(codec), true);
            expiry = RowExpiry.of(
                    new TimeToLive(1_000, domain, TTL),
                    context,
                    store,
                    Serdes.String().deserializer(),
                    changes);
        }

        void put(byte[] key, String value, long time) {
            byte[] old = expiry.live(key, store.get(key));
            byte[] stored = codec.encode(new TableRow<>(value, time, -1, expiry.updatedAt()));
            store.put(key, stored);
            changes.changed(new String(key, StandardCharsets.UTF_8), key, old, stored, time);
            expiry.changed(key, old, stored);
        }
    }

    private List<List<GoldenBytes.Entry>> eventTime() {
        GoldenBytes rows = GoldenBytes.of("row-expiry-event-time-rows");
        GoldenBytes index = GoldenBytes.of("row-expiry-event-time-ttl");
        try (RecordingContext context = new RecordingContext(dir.resolve("event-time"), ROWS, TTL)) {
            Table table = new Table(context, TimeDomain.EVENT_TIME);
            table.put(A, "apple", 1_000);
            table.put(B, "banana", -500);
            var first = GoldenBytes.commit(context.stores());
            rows.addWrites(
                    first.get(ROWS),
                    "commit 1: key \"a\": \"apple\" at 1000",
                    "commit 1: key \"b\": \"banana\" at -500 (a negative time)");
            index.addWrites(
                    first.get(TTL),
                    "commit 1: key \"b\" expires at -500 + 1000 = 500",
                    "commit 1: key \"a\" expires at 1000 + 1000 = 2000");
            context.watermark(600);
            table.expiry.advance();
            var second = GoldenBytes.commit(context.stores());
            rows.addWrites(second.get(ROWS), "commit 2: key \"b\" expired at watermark 600");
            index.addWrites(second.get(TTL), "commit 2: key \"b\" expired at watermark 600");
        }
        return List.of(rows.verify(), index.verify());
    }

    private List<List<GoldenBytes.Entry>> processingTime() {
        GoldenBytes rows = GoldenBytes.of("row-expiry-processing-time-rows");
        GoldenBytes index = GoldenBytes.of("row-expiry-processing-time-ttl");
        try (RecordingContext context = new RecordingContext(dir.resolve("processing-time"), ROWS, TTL)) {
            Table table = new Table(context, TimeDomain.PROCESSING_TIME);
            context.processingTime(T);
            table.put(A, "apple", -5);
            context.processingTime(T + 500);
            table.put(B, "banana", 1_000);
            var first = GoldenBytes.commit(context.stores());
            rows.addWrites(
                    first.get(ROWS),
                    "commit 1: key \"a\": \"apple\" at event time -5, updated at 1700000000000",
                    "commit 1: key \"b\": \"banana\" at event time 1000, updated at 1700000000500");
            index.addWrites(
                    first.get(TTL),
                    "commit 1: key \"a\" expires at 1700000000000 + 1000",
                    "commit 1: key \"b\" expires at 1700000000500 + 1000");
            context.processingTime(T + 1_000);
            table.expiry.advance();
            var second = GoldenBytes.commit(context.stores());
            rows.addWrites(second.get(ROWS), "commit 2: key \"a\" expired at 1700000001000");
            index.addWrites(second.get(TTL), "commit 2: key \"a\" expired at 1700000001000");
        }
        return List.of(rows.verify(), index.verify());
    }

    @Test
    void anEventTimeTtlTableIsStoredAsTheGoldenBytes() {
        eventTime();
    }

    @Test
    void aProcessingTimeTtlTableIsStoredAsTheGoldenBytes() {
        processingTime();
    }

    @Test
    void anEventTimeTtlRestoredFromTheGoldenBytesExpiresTheRowLeft() {
        List<List<GoldenBytes.Entry>> stored = eventTime();
        try (RecordingContext context = new RecordingContext(dir.resolve("event-time-restored"), ROWS, TTL)) {
            GoldenBytes.restore(context.stores(), ROWS, stored.get(0));
            GoldenBytes.restore(context.stores(), TTL, stored.get(1));
            context.watermark(600);
            Table table = new Table(context, TimeDomain.EVENT_TIME);
            assertNull(table.store.get(B));
            assertEquals("apple", codec.decode(table.store.get(A)).value());
            context.watermark(2_000);
            table.expiry.advance();
            assertNull(table.store.get(A));
            assertEquals(List.of("a: apple -> null @1000"), describe(context));
            assertEquals(1, context.metric(WeirMetrics.ROWS_EXPIRED));
        }
    }

    @Test
    void aProcessingTimeTtlRestoredFromTheGoldenBytesExpiresTheRowLeft() {
        List<List<GoldenBytes.Entry>> stored = processingTime();
        try (RecordingContext context = new RecordingContext(dir.resolve("processing-time-restored"), ROWS, TTL)) {
            GoldenBytes.restore(context.stores(), ROWS, stored.get(0));
            GoldenBytes.restore(context.stores(), TTL, stored.get(1));
            context.processingTime(T + 1_000);
            Table table = new Table(context, TimeDomain.PROCESSING_TIME);
            assertEquals(T + 500, TableRowCodec.updatedAt(table.store.get(B)));
            context.processingTime(T + 1_500);
            table.expiry.advance();
            assertNull(table.store.get(B));
            assertEquals(List.of("b: banana -> null @1000"), describe(context));
        }
    }

    private static List<String> describe(RecordingContext context) {
        return context.<String, Change<String>>forwarded().stream()
                .map(RowExpiryGoldenTest::describe)
                .toList();
    }

    private static String describe(Record<String, Change<String>> r) {
        return r.key() + ": " + r.value().oldValue() + " -> " + r.value().newValue() + " @" + r.timestamp();
    }
}
