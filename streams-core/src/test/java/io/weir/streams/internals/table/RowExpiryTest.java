package io.weir.streams.internals.table;

import io.weir.streams.WeirMetrics;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.internals.testing.RecordingContext;
import io.weir.streams.time.TimeDomain;
import org.apache.kafka.common.serialization.Serdes;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * A table's time-to-live, one test per rule, over real RocksDB stores: when a row expires in event time and
 * in processing time, what an update, a delete or a late change does to its expiry, and that each expiry is
 * a delete in the store, a delete downstream and a count.
 */
class RowExpiryTest {

    private static final String ROWS = "rows";
    private static final String TTL_STORE = TimeToLive.indexStoreOf(ROWS);
    private static final long TTL = 1_000;

    private final TableRowCodec<String> codec = new TableRowCodec<>(ROWS, Serdes.String());

    @TempDir
    Path dir;

    private RecordingContext context;
    private WriteBackCache store;
    private ChangeEmitter<String, String> changes;
    private RowExpiry<String, String> expiry;

    /** A table with a TTL in {@code domain} (null: none), emitting each change as it happens. */
    private void open(@Nullable TimeDomain domain) {
        context = new RecordingContext(dir, ROWS, TTL_STORE);
        store = context.stores().cache(ROWS);
        changes = new ChangeEmitter<>(context, RowFormat.of(codec), true);
        expiry = RowExpiry.of(
                domain == null ? null : new TimeToLive(TTL, domain, TTL_STORE),
                context,
                store,
                Serdes.String().deserializer(),
                changes);
    }

    @AfterEach
    void close() {
        if (context != null) {
            context.close();
        }
    }

    /** Commits, closes and opens the table again over what RocksDB kept, at {@code watermark}. */
    private void restart(TimeDomain domain, long watermark) {
        context.stores().completeCommit(context.stores().prepareCommit(), Map.of());
        context.close();
        RecordingContext next = new RecordingContext(dir, ROWS, TTL_STORE);
        next.watermark(watermark);
        context = next;
        store = context.stores().cache(ROWS);
        changes = new ChangeEmitter<>(context, RowFormat.of(codec), true);
        expiry = RowExpiry.of(
                new TimeToLive(TTL, domain, TTL_STORE),
                context,
                store,
                Serdes.String().deserializer(),
                changes);
    }

    private static byte[] key(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }

    /** Sets {@code key}'s row (null: deletes it) at event time {@code time}, as a table operator does. */
    private void put(String key, @Nullable String value, long time) {
        byte[] k = key(key);
        byte[] old = expiry.live(k, store.get(k));
        byte[] stored = value == null ? null : codec.encode(new TableRow<>(value, time, -1, expiry.updatedAt()));
        store.put(k, stored);
        changes.changed(key, k, old, stored, time);
        expiry.changed(k, old, stored);
    }

    private @Nullable String row(String key) {
        byte[] stored = store.get(key(key));
        return stored == null ? null : codec.decode(stored).value();
    }

    /** What went downstream, after the changes the test made itself. */
    private List<String> deletes() {
        return context.<String, Change<String>>forwarded().stream()
                .filter(r -> r.value().newValue() == null)
                .map(RowExpiryTest::describe)
                .toList();
    }

    private static String describe(Record<String, Change<String>> r) {
        return r.key() + ": " + r.value().oldValue() + " -> null @" + r.timestamp();
    }

    private long expired() {
        return context.metric(WeirMetrics.ROWS_EXPIRED);
    }

    @Test
    void withoutATimeToLiveNothingExpires() {
        open(null);
        put("a", "apple", 1_000);
        context.watermark(Long.MAX_VALUE);
        expiry.advance();
        assertEquals("apple", row("a"));
        assertEquals(Long.MIN_VALUE, expiry.updatedAt(), "no update time is kept");
        assertEquals(0, expired());
    }

    @Test
    void anEventTimeRowExpiresWhenTheWatermarkReachesItsTimePlusTheTtl() {
        open(TimeDomain.EVENT_TIME);
        put("a", "apple", 1_000);
        context.watermark(1_999);
        expiry.advance();
        assertEquals("apple", row("a"));
        context.watermark(2_000);
        expiry.advance();
        assertNull(row("a"));
    }

    @Test
    void anExpiredRowIsADeleteDownstreamStampedWithTheRowsTimeAndCounted() {
        open(TimeDomain.EVENT_TIME);
        put("a", "apple", 1_000);
        put("b", "banana", 1_500);
        context.watermark(3_000);
        expiry.advance();
        assertEquals(List.of("a: apple -> null @1000", "b: banana -> null @1500"), deletes(), "in expiry order");
        assertEquals(2, expired());
    }

    @Test
    void anUpdateMovesTheExpiryToItsOwnTimePlusTheTtl() {
        open(TimeDomain.EVENT_TIME);
        put("a", "apple", 1_000);
        put("a", "avocado", 1_800);
        context.watermark(2_000);
        expiry.advance();
        assertEquals("avocado", row("a"), "the first change's expiry was taken back");
        context.watermark(2_800);
        expiry.advance();
        assertNull(row("a"));
        assertEquals(1, expired());
    }

    @Test
    void aDeletedRowNoLongerExpires() {
        open(TimeDomain.EVENT_TIME);
        put("a", "apple", 1_000);
        put("a", null, 1_200);
        context.watermark(5_000);
        expiry.advance();
        assertEquals(0, expired());
        assertEquals(List.of("a: apple -> null @1200"), deletes(), "only the table's own delete");
    }

    @Test
    void aRowPastItsExpiryIsGoneToAChangeBeforeThePurgeRuns() {
        open(TimeDomain.EVENT_TIME);
        put("a", "apple", 1_000);
        context.watermark(2_000);
        assertNull(expiry.live(key("a"), store.get(key("a"))), "expired, though not purged yet");
        assertNull(row("a"), "deleted as it was found");
        assertEquals(List.of("a: apple -> null @1000"), deletes());
        assertEquals(1, expired());
        expiry.advance();
        assertEquals(1, expired(), "the purge finds nothing more");
    }

    @Test
    void aRowNotPastItsExpiryIsLiveAsStored() {
        open(TimeDomain.EVENT_TIME);
        put("a", "apple", 1_000);
        context.watermark(1_999);
        byte[] stored = store.get(key("a"));
        assertSame(stored, expiry.live(key("a"), stored));
    }

    @Test
    void aChangeAlreadyPastItsExpiryIsDeletedAtOnce() {
        open(TimeDomain.EVENT_TIME);
        context.watermark(5_000);
        put("a", "old news", 1_000);
        assertNull(row("a"));
        assertEquals(1, expired());
    }

    @Test
    void aProcessingTimeRowExpiresWhenTheClockReachesItsLastChangePlusTheTtlWhateverTheWatermark() {
        open(TimeDomain.PROCESSING_TIME);
        context.processingTime(10_000);
        put("a", "apple", 1_000);
        assertEquals(10_000, TableRowCodec.updatedAt(store.get(key("a"))), "the update time is kept in the row");
        context.watermark(Long.MAX_VALUE);
        context.processingTime(10_999);
        expiry.advance();
        assertEquals("apple", row("a"));
        context.processingTime(11_000);
        expiry.advance();
        assertNull(row("a"));
        assertEquals(List.of("a: apple -> null @1000"), deletes(), "stamped with the row's event time");
    }

    @Test
    void aProcessingTimeUpdateRestartsTheTtl() {
        open(TimeDomain.PROCESSING_TIME);
        context.processingTime(10_000);
        put("a", "apple", 1_000);
        context.processingTime(10_500);
        put("a", "avocado", 900);
        context.processingTime(11_000);
        expiry.advance();
        assertEquals("avocado", row("a"));
        context.processingTime(11_500);
        expiry.advance();
        assertNull(row("a"));
    }

    @Test
    void rowsThatExpiredWhileTheTaskWasAwayAreDeletedWhenItStarts() {
        open(TimeDomain.EVENT_TIME);
        put("a", "apple", 1_000);
        put("b", "banana", 5_000);
        restart(TimeDomain.EVENT_TIME, 2_000);
        assertNull(row("a"));
        assertEquals("banana", row("b"));
        assertEquals(List.of("a: apple -> null @1000"), deletes());
        assertEquals(1, expired());
    }

    @Test
    void aRestartedTableStillExpiresItsRowsOnTime() {
        open(TimeDomain.EVENT_TIME);
        put("b", "banana", 5_000);
        restart(TimeDomain.EVENT_TIME, 2_000);
        context.watermark(5_999);
        expiry.advance();
        assertEquals("banana", row("b"));
        context.watermark(6_000);
        expiry.advance();
        assertNull(row("b"));
        assertEquals(1, expired());
    }
}
