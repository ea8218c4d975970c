package io.weir.streams.internals.join;

import io.weir.streams.internals.table.RowFormat;
import io.weir.streams.internals.table.TableRow;
import io.weir.streams.internals.table.TableRowCodec;
import io.weir.streams.internals.testing.GoldenBytes;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The stored rows of a table–table join ({@code 'J'} format), byte for byte. */
class JoinedRowsGoldenTest {

    private static final TableRowCodec<String> LEFT = new TableRowCodec<>("left", Serdes.String());
    private static final TableRowCodec<Long> RIGHT = new TableRowCodec<>("right", Serdes.Long());

    private static final byte[] L = LEFT.encode(new TableRow<>("L", 1_000, -1, Long.MIN_VALUE));
    private static final byte[] R = RIGHT.encode(new TableRow<>(7L, 2_000, -1, Long.MIN_VALUE));
    private static final byte[] LONG_LEFT = LEFT.encode(new TableRow<>("x".repeat(150), -300, -1, Long.MIN_VALUE));

    private record Joined(String what, byte[] left, byte[] right, long time) {}

    private static final List<Joined> ROWS = List.of(
            new Joined("both rows (\"L\" at 1000, 7 at 2000) at 2000", L, R, 2_000),
            new Joined("a left row alone at 1000", L, null, 1_000),
            new Joined("a right row alone at -300", null, R, -300),
            new Joined("a left row of 160 bytes (two-byte varint length) and a right row at -300", LONG_LEFT, R, -300));

    /** Outer, so that every stored row stands for a value: the left value, then the right one. */
    private final JoinedRows<String, String, String, Long, String> outer =
            new JoinedRows<>(RowFormat.of(LEFT), RowFormat.of(RIGHT), (k, v) -> k, (l, r) -> l + "/" + r, true, true);

    /** The rows encoded now, compared with the fixture; the fixture's records. */
    private static List<GoldenBytes.Entry> golden() {
        GoldenBytes golden = GoldenBytes.of("joined-rows");
        for (Joined j : ROWS) {
            golden.add(j.what(), JoinedRows.encode(j.left(), j.right(), j.time()));
        }
        return golden.verify();
    }

    @Test
    void joinedRowsAreStoredAsTheGoldenBytes() {
        List<GoldenBytes.Entry> stored = golden();
        for (int i = 0; i < ROWS.size(); i++) {
            Joined j = ROWS.get(i);
            byte[] bytes = stored.get(i).bytes();
            assertEquals(j.time(), JoinedRows.timestampOf(bytes), j.what());
            assertArrayEquals(j.left(), JoinedRows.leftRow(bytes), j.what());
            assertArrayEquals(j.right(), JoinedRows.rightRow(bytes), j.what());
        }
    }

    @Test
    void theGoldenRowsStandForTheJoinersValueOfTheRowsTheyHold() {
        List<GoldenBytes.Entry> stored = golden();
        assertEquals("L/7", outer.value("k", stored.get(0).bytes()));
        assertEquals("L/null", outer.value("k", stored.get(1).bytes()));
        assertEquals("null/7", outer.value("k", stored.get(2).bytes()));
        JoinedRows<String, String, String, Long, String> inner = new JoinedRows<>(
                RowFormat.of(LEFT), RowFormat.of(RIGHT), (k, v) -> k, (l, r) -> l + "/" + r, false, false);
        assertNull(inner.value("k", stored.get(1).bytes()), "an inner join's left row alone stands for no value");
        assertEquals(
                "x".repeat(150) + "/7",
                outer.value("k", stored.get(3).bytes()),
                Arrays.toString(stored.get(3).bytes()));
    }
}
