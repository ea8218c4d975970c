package io.weir.streams.internals.table;

import io.weir.streams.internals.testing.FormatRefusals;
import io.weir.streams.internals.testing.GoldenBytes;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The stored form of a table row (format version 1), byte for byte: every table store and changelog, a
 * topic table's own store, a versioned table's latest and history rows and a windowed table's rows hold it.
 */
class TableRowCodecGoldenTest {

    private static final long T = 1_700_000_000_000L;

    private final TableRowCodec<String> codec = new TableRowCodec<>("rows", Serdes.String());

    private static final List<TableRow<String>> ROWS = List.of(
            new TableRow<>("apple", T, -1, Long.MIN_VALUE),
            new TableRow<>("apple", -5, -1, T + 123),
            new TableRow<>("sum", 0, 3, Long.MIN_VALUE),
            new TableRow<>("", Long.MAX_VALUE, 300, Long.MIN_VALUE),
            new TableRow<>(null, T, -1, Long.MIN_VALUE),
            new TableRow<>(null, Long.MIN_VALUE, 0, -1));

    private static final List<String> WHAT = List.of(
            "a table's row: value \"apple\" at event time 1700000000000, no row count, no update time",
            "a processing-time TTL table's row: \"apple\" at event time -5, updated at 1700000000123",
            "an aggregation of a table: \"sum\" at 0 holding 3 input rows",
            "an empty (not null) value at Long.MAX_VALUE holding 300 rows (a two-byte varint)",
            "a versioned table's delete (tombstone row): no value, at 1700000000000",
            "an aggregate the aggregator made null: no value, 0 rows, at Long.MIN_VALUE, updated at -1");

    @Test
    void tableRowsAreStoredAsTheGoldenBytes() {
        GoldenBytes golden = GoldenBytes.of("table-row");
        for (int i = 0; i < ROWS.size(); i++) {
            golden.add(WHAT.get(i), codec.encode(ROWS.get(i)));
        }
        List<GoldenBytes.Entry> stored = golden.verify();
        for (int i = 0; i < ROWS.size(); i++) {
            byte[] bytes = stored.get(i).bytes();
            TableRow<String> row = ROWS.get(i);
            assertEquals(row, codec.decode(bytes), WHAT.get(i));
            assertEquals(row.timestamp(), TableRowCodec.timestamp(bytes), "the time, read without decoding");
            assertEquals(row.updatedAt(), TableRowCodec.updatedAt(bytes), "the update time, read without decoding");
            assertEquals(row.value() == null, TableRowCodec.isDelete(bytes), "a delete, read without decoding");
            assertEquals(row.value() == null, TableRowCodec.isDeleteRow(bytes));
        }
    }

    @Test
    void aRowsTimeAndKindAreNotReadFromANewerVersion() {
        byte[] newer = FormatRefusals.withVersion(codec.encode(ROWS.get(1)), 2);
        for (Executable read : List.<Executable>of(
                () -> TableRowCodec.timestamp(newer),
                () -> TableRowCodec.updatedAt(newer),
                () -> TableRowCodec.isDelete(newer),
                () -> TableRowCodec.timeReplacing(0, newer))) {
            FormatRefusals.assertRefused(read, "A table store", "table row in format version 2", "reads version 1");
        }
        assertFalse(TableRowCodec.isDeleteRow(newer), "not a delete: decoding it then refuses it");
    }

    @Test
    void aSourceTablesAlreadySerializedValueIsStoredAsTheSameBytes() {
        for (TableRow<String> row : ROWS) {
            byte[] value = row.value() == null ? null : row.value().getBytes(StandardCharsets.UTF_8);
            assertArrayEquals(
                    codec.encode(row),
                    TableRowCodec.encode(value, row.timestamp(), row.rows(), row.updatedAt()),
                    row.toString());
        }
    }
}
