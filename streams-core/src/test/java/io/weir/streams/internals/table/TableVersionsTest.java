package io.weir.streams.internals.table;

import io.weir.streams.internals.state.KeyValueIterator;
import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.internals.testing.RecordingContext;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import static io.weir.streams.internals.table.TableVersions.Outcome.HISTORY;
import static io.weir.streams.internals.table.TableVersions.Outcome.LATEST;
import static io.weir.streams.internals.table.TableVersions.Outcome.TOO_OLD;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A versioned table's versions, one test per rule, over real RocksDB stores: which update becomes the latest
 * and which goes into history, what is read as of a time, what is refused as too old, and when the history
 * leaves.
 */
class TableVersionsTest {

    private static final String LATEST_STORE = "prices";
    private static final String HISTORY_STORE = TableVersions.historyStoreOf(LATEST_STORE);
    private static final String EXPIRY_STORE = TableVersions.expiryStoreOf(LATEST_STORE);
    private static final long RETENTION = 1_000;
    private static final long NO_WATERMARK = Long.MIN_VALUE;
    private static final byte[] K = "k".getBytes(StandardCharsets.UTF_8);

    private final TableRowCodec<String> codec = new TableRowCodec<>(LATEST_STORE, Serdes.String());

    @TempDir
    Path dir;

    private RecordingContext context;
    private TableVersions versions;
    private WriteBackCache latest;
    private WriteBackCache history;

    @BeforeEach
    void open() {
        context = new RecordingContext(dir, LATEST_STORE, HISTORY_STORE, EXPIRY_STORE);
        latest = context.stores().cache(LATEST_STORE);
        history = context.stores().cache(HISTORY_STORE);
        versions = new TableVersions(latest, history, context.stores().cache(EXPIRY_STORE), RETENTION);
    }

    @AfterEach
    void close() {
        context.close();
    }

    /** Commits, closes and opens the versions again over what RocksDB kept: a task restarting. */
    private void restart() {
        context.stores().completeCommit(context.stores().prepareCommit(), Map.of());
        context.close();
        open();
    }

    private TableVersions.Outcome put(String value, long time, long watermark) {
        return versions.put(K, codec.encode(new TableRow<>(value, time, -1, Long.MIN_VALUE)), time, watermark);
    }

    private TableVersions.Outcome delete(long time, long watermark) {
        return versions.put(K, TableRowCodec.encode(null, time, -1, Long.MIN_VALUE), time, watermark);
    }

    /** The value valid at {@code asOf}: "(none)" when no version is, "(deleted)" for a delete. */
    private String at(long asOf) {
        byte[] row = TableVersions.at(latest, history, K, asOf);
        if (row == null) {
            return "(none)";
        }
        String value = codec.decode(row).value();
        return value == null ? "(deleted)" : value;
    }

    private int historyEntries() {
        int n = 0;
        try (KeyValueIterator it = history.range(null, null)) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }

    @Test
    void theFirstVersionIsTheLatestFromItsTimeOn() {
        assertEquals(LATEST, put("a", 1_000, NO_WATERMARK));
        assertEquals("a", at(1_000));
        assertEquals("a", at(Long.MAX_VALUE));
        assertEquals("(none)", at(999));
        assertEquals(1_000, TableRowCodec.timestamp(latest.get(K)));
    }

    @Test
    void aLaterVersionBecomesTheLatestAndTheOldOneGoesIntoHistory() {
        put("a", 1_000, NO_WATERMARK);
        assertEquals(LATEST, put("b", 2_000, NO_WATERMARK));
        assertEquals("b", codec.decode(latest.get(K)).value());
        assertEquals("a", at(1_999));
        assertEquals("b", at(2_000));
        assertEquals(1, historyEntries());
    }

    @Test
    void aVersionAtTheLatestsTimeReplacesItWithoutHistory() {
        put("a", 1_000, NO_WATERMARK);
        assertEquals(LATEST, put("a2", 1_000, NO_WATERMARK));
        assertEquals("a2", at(1_000));
        assertEquals(0, historyEntries());
    }

    @Test
    void anOlderVersionGoesIntoHistoryBetweenItsNeighboursAndLeavesTheLatestAsItWas() {
        put("a", 1_000, NO_WATERMARK);
        put("c", 3_000, NO_WATERMARK);
        byte[] current = latest.get(K);
        assertEquals(HISTORY, put("b", 2_000, NO_WATERMARK));
        assertArrayEquals(current, latest.get(K), "the latest row is untouched");
        assertEquals("a", at(1_999));
        assertEquals("b", at(2_000));
        assertEquals("b", at(2_999));
        assertEquals("c", at(3_000));
    }

    @Test
    void aVersionOlderThanEveryOtherIsReadFromItsTimeOn() {
        put("b", 2_000, NO_WATERMARK);
        assertEquals(HISTORY, put("a", -100, NO_WATERMARK));
        assertEquals("(none)", at(-101));
        assertEquals("a", at(-100));
        assertEquals("a", at(1_999));
        assertEquals("b", at(2_000));
    }

    @Test
    void anOlderVersionAtAHistoryEntrysTimeReplacesIt() {
        put("a", 1_000, NO_WATERMARK);
        put("b", 2_000, NO_WATERMARK);
        assertEquals(HISTORY, put("a2", 1_000, NO_WATERMARK));
        assertEquals("a2", at(1_500));
        assertEquals(1, historyEntries());
    }

    @Test
    void anUpdateTheRetentionBehindTheWatermarkIsRefused() {
        put("b", 5_000, NO_WATERMARK);
        assertEquals(TOO_OLD, put("a", 1_000, 2_000), "1000 + 1000 <= 2000");
        assertEquals("(none)", at(1_000));
        assertEquals(HISTORY, put("a", 1_001, 2_000), "1001 + 1000 > 2000");
        assertEquals("a", at(1_001));
    }

    @Test
    void aLatestUpdateTheRetentionBehindTheWatermarkIsRefusedToo() {
        assertEquals(TOO_OLD, put("a", 1_000, 2_000));
        assertNull(latest.get(K));
    }

    @Test
    void withoutAWatermarkNothingIsTooOld() {
        put("b", 5_000, NO_WATERMARK);
        assertEquals(HISTORY, put("a", Long.MIN_VALUE, NO_WATERMARK));
    }

    @Test
    void aReplacedVersionLeavesWhenTheWatermarkPassesItsEndPlusTheRetention() {
        put("a", 1_000, NO_WATERMARK);
        put("b", 2_000, NO_WATERMARK);
        versions.advance(2_999);
        assertEquals("a", at(1_000), "valid until 2000, kept until 2000 + 1000");
        versions.advance(3_000);
        assertEquals("(none)", at(1_000));
        assertEquals(0, historyEntries());
        assertEquals("b", at(2_000), "the latest version stays");
    }

    @Test
    void aVersionPutBetweenTwoShortensTheOneBeforeIt() {
        put("a", 1_000, NO_WATERMARK);
        put("c", 3_000, NO_WATERMARK);
        put("b", 2_000, NO_WATERMARK);
        versions.advance(3_000);
        assertEquals("(none)", at(1_000), "a ends at 2000 now: it left at 2000 + 1000, not 3000 + 1000");
        assertEquals("b", at(2_000), "b ends at 3000: kept until 4000");
        versions.advance(3_999);
        assertEquals("b", at(2_000));
        versions.advance(4_000);
        assertEquals(0, historyEntries());
    }

    @Test
    void aDeleteIsTheLatestVersionAndReadAsOne() {
        put("a", 1_000, NO_WATERMARK);
        assertEquals(LATEST, delete(2_000, NO_WATERMARK));
        assertEquals("a", at(1_999));
        assertEquals("(deleted)", at(2_000));
        assertTrue(TableRowCodec.isDelete(latest.get(K)));
    }

    @Test
    void aLatestDeleteLeavesTheStoreAtItsTimePlusTheRetention() {
        delete(2_000, NO_WATERMARK);
        versions.advance(2_999);
        assertEquals("(deleted)", at(2_000));
        versions.advance(3_000);
        assertNull(latest.get(K));
    }

    @Test
    void aDeleteReplacedByALaterVersionDoesNotTakeThatVersionWithIt() {
        delete(2_000, NO_WATERMARK);
        put("b", 2_500, NO_WATERMARK);
        versions.advance(3_000);
        assertEquals("b", codec.decode(latest.get(K)).value());
        assertEquals("(deleted)", at(2_499), "the delete is history now, until 2500 + 1000");
        versions.advance(3_500);
        assertEquals("(none)", at(2_499));
    }

    @Test
    void aRestartedTableKeepsItsVersionsAndTheirExpiry() {
        put("a", 1_000, NO_WATERMARK);
        put("b", 2_000, NO_WATERMARK);
        restart();
        assertEquals("a", at(1_999));
        versions.advance(3_000);
        assertEquals("(none)", at(1_999), "the expiry index is read back from its store");
        assertEquals("b", at(2_000));
    }
}
