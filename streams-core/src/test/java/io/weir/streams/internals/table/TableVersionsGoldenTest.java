package io.weir.streams.internals.table;

import io.weir.streams.internals.state.WriteBackCache;
import io.weir.streams.internals.testing.FormatRefusals;
import io.weir.streams.internals.testing.GoldenBytes;
import io.weir.streams.internals.testing.RecordingContext;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A versioned table's three stores, byte for byte as their changelogs carry them: the latest rows, the
 * history ({@code [key length][key][valid from: 8, sign-flipped]}, a table row) and the history's expiry
 * index (markers {@code [kind][time: 8][key]}); read back by restored versions.
 */
class TableVersionsGoldenTest {

    private static final String LATEST = "prices";
    private static final String HISTORY = TableVersions.historyStoreOf(LATEST);
    private static final String EXPIRY = TableVersions.expiryStoreOf(LATEST);
    private static final long RETENTION = 1_000;
    private static final byte[] K = "k".getBytes(StandardCharsets.UTF_8);
    private static final byte[] GONE = "gone".getBytes(StandardCharsets.UTF_8);

    private final TableRowCodec<String> codec = new TableRowCodec<>(LATEST, Serdes.String());

    @TempDir
    Path dir;

    private byte[] row(String value, long time) {
        return codec.encode(new TableRow<>(value, time, -1, Long.MIN_VALUE));
    }

    private static byte[] delete(long time) {
        return TableRowCodec.encode(null, time, -1, Long.MIN_VALUE);
    }

    private RecordingContext context(String name) {
        return new RecordingContext(dir.resolve(name), LATEST, HISTORY, EXPIRY);
    }

    private static TableVersions versions(RecordingContext context) {
        return new TableVersions(
                context.stores().cache(LATEST),
                context.stores().cache(HISTORY),
                context.stores().cache(EXPIRY),
                RETENTION);
    }

    /** The fixtures of the latest rows, the history and the expiry index. */
    private List<List<GoldenBytes.Entry>> golden() {
        GoldenBytes latest = GoldenBytes.of("table-versions-latest");
        GoldenBytes history = GoldenBytes.of("table-versions-history");
        GoldenBytes expiry = GoldenBytes.of("table-versions-expiry");
        try (RecordingContext context = context("written")) {
            TableVersions versions = versions(context);
            assertEquals(TableVersions.Outcome.LATEST, versions.put(K, row("a", 1_000), 1_000, Long.MIN_VALUE));
            assertEquals(TableVersions.Outcome.LATEST, versions.put(K, row("b", 2_000), 2_000, Long.MIN_VALUE));
            assertEquals(TableVersions.Outcome.HISTORY, versions.put(K, row("z", -100), -100, Long.MIN_VALUE));
            assertEquals(TableVersions.Outcome.LATEST, versions.put(GONE, delete(1_500), 1_500, Long.MIN_VALUE));
            var first = GoldenBytes.commit(context.stores());
            latest.addWrites(
                    first.get(LATEST),
                    "commit 1: key \"gone\" deleted at 1500 (a delete row)",
                    "commit 1: key \"k\" latest \"b\" from 2000");
            history.addWrites(
                    first.get(HISTORY),
                    "commit 1: key \"k\" \"z\" from -100 (a negative time)",
                    "commit 1: key \"k\" \"a\" from 1000");
            expiry.addWrites(
                    first.get(EXPIRY),
                    "commit 1: history entry of \"k\" from -100 leaves at 1000 + 1000",
                    "commit 1: latest delete of \"gone\" at 1500 leaves at 1500 + 1000",
                    "commit 1: history entry of \"k\" from 1000 leaves at 2000 + 1000");
            versions.advance(2_000);
            var second = GoldenBytes.commit(context.stores());
            latest.addWrites(second.get(LATEST));
            history.addWrites(second.get(HISTORY), "commit 2: key \"k\" \"z\" from -100 left at watermark 2000");
            expiry.addWrites(second.get(EXPIRY), "commit 2: its expiry entry");
        }
        return List.of(latest.verify(), history.verify(), expiry.verify());
    }

    @Test
    void versionsAreStoredAsTheGoldenBytes() {
        golden();
    }

    @Test
    void versionsRestoredFromTheGoldenBytesAreReadAsOfAnyTimeAndExpire() {
        List<List<GoldenBytes.Entry>> stored = golden();
        try (RecordingContext context = context("restored")) {
            GoldenBytes.restore(context.stores(), LATEST, stored.get(0));
            GoldenBytes.restore(context.stores(), HISTORY, stored.get(1));
            GoldenBytes.restore(context.stores(), EXPIRY, stored.get(2));
            WriteBackCache latest = context.stores().cache(LATEST);
            WriteBackCache history = context.stores().cache(HISTORY);
            assertEquals(
                    "b",
                    codec.decode(TableVersions.at(latest, history, K, 2_000)).value());
            assertEquals(
                    "a",
                    codec.decode(TableVersions.at(latest, history, K, 1_999)).value());
            assertNull(TableVersions.at(latest, history, K, 999), "the version from -100 has left");
            assertTrue(TableRowCodec.isDelete(TableVersions.at(latest, history, GONE, 1_500)));
            TableVersions versions = versions(context);
            versions.advance(2_500);
            assertNull(latest.get(GONE), "the latest delete leaves at its time plus the retention");
            versions.advance(3_000);
            assertNull(TableVersions.at(latest, history, K, 1_999), "the version from 1000 has left");
            assertEquals(
                    "b",
                    codec.decode(TableVersions.at(latest, history, K, 3_000)).value());
        }
    }

    @Test
    void anExpiryEntryOfAKindThisVersionDoesNotKnowIsRefusedWhenItIsDue() {
        List<GoldenBytes.Entry> expiry = golden().get(2);
        List<GoldenBytes.Entry> otherKind = new ArrayList<>();
        for (GoldenBytes.Entry e : expiry) {
            byte[] key = e.field(0).clone();
            key[8] = 'x'; // after the expiry time: the marker's kind
            otherKind.add(new GoldenBytes.Entry(e.comment(), Arrays.asList(key, e.fieldOrNull(1))));
        }
        try (RecordingContext context = context("other-kind")) {
            GoldenBytes.restore(context.stores(), EXPIRY, otherKind);
            TableVersions versions = versions(context);
            FormatRefusals.assertRefused(
                    () -> versions.advance(Long.MAX_VALUE),
                    "Store '" + EXPIRY + "'",
                    "versioned table's expiry entry of kind 120",
                    "'h'",
                    "'l'");
        }
    }
}
