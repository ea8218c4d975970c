package io.weir.streams.internals;

import io.weir.streams.internals.join.JoinedRows;
import io.weir.streams.internals.operator.BufferedRecordCodec;
import io.weir.streams.internals.table.Change;
import io.weir.streams.internals.table.ChangeSerde;
import io.weir.streams.internals.table.TableRowCodec;
import io.weir.streams.internals.window.WindowStateCodec;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static io.weir.streams.internals.testing.FormatRefusals.assertRefused;
import static io.weir.streams.internals.testing.FormatRefusals.withFlag;
import static io.weir.streams.internals.testing.FormatRefusals.withVersion;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every versioned format, read in a version this Weir does not read (as a newer release may write it), is
 * refused naming the format, the version found and the version read: one test per format, through the
 * readers the operators use. The bytes are this version's, with the version byte or a flag changed.
 * Readers that are not public are tested beside them: {@code TableRowCodecGoldenTest} (a row's time and
 * kind read without decoding), {@code WindowStateCodecTest} (whether a window has a pending pane), {@code
 * ForeignKeyMessagesGoldenTest} (a subscription's kind) and {@code StreamTaskTest} (a repartition
 * record's refusal passes no error handler).
 */
class UnknownFormatVersionTest {

    @Test
    void aBufferedRecordOfANewerVersionIsRefused() {
        BufferedRecordCodec<String, Long> codec = new BufferedRecordCodec<>("buffer", Serdes.String(), Serdes.Long());
        byte[] v1 = codec.encode("k", 42L, new RecordHeaders());
        assertEquals("k", codec.decode(v1).key());
        assertRefused(
                () -> codec.decode(withVersion(v1, 2)),
                "Store 'buffer'",
                "buffered record in format version 2",
                "reads version 1 only");
        assertRefused(() -> codec.decode(new byte[0]), "Store 'buffer'", "empty buffered record");
    }

    @Test
    void windowStateOfANewerVersionOrWithAnUnknownFlagIsRefused() {
        WindowStateCodec<Long> codec = new WindowStateCodec<>("counts", Serdes.Long());
        // Version 1, no flags, no panes, nothing since the last pane, aggregate 3.
        byte[] v1 = HexFormat.of().parseHex("01000000" + "0000000000000003");
        assertEquals(3L, codec.aggregate(v1));
        assertRefused(
                () -> codec.aggregate(withVersion(v1, 2)),
                "Store 'counts'",
                "window state in format version 2",
                "reads version 1 only");
        assertRefused(() -> codec.aggregate(withFlag(v1, 0x20)), "Store 'counts'", "window state", "flags 0x20");
        assertRefused(() -> codec.aggregate(withFlag(v1, 0x01)), "flags 0x1");
    }

    @Test
    void aTableRowOfANewerVersionOrWithAnUnknownFlagIsRefused() {
        TableRowCodec<String> codec = new TableRowCodec<>("rows", Serdes.String());
        byte[] v1 = TableRowCodec.encode(new byte[] {'v'}, 5, -1, Long.MIN_VALUE);
        assertEquals("v", codec.decode(v1).value());
        assertRefused(
                () -> codec.decode(withVersion(v1, 2)),
                "Store 'rows'",
                "table row in format version 2",
                "reads version 1 only");
        assertRefused(() -> codec.sameValue(v1, withVersion(v1, 2)), "Store 'rows'", "format version 2");
        assertRefused(() -> codec.decode(withFlag(v1, 0x08)), "Store 'rows'", "table row", "flags 0x8");
        assertRefused(() -> codec.decode(new byte[] {1, 0, 0}), "table row of 3 bytes", "(10)");
    }

    @Test
    void aTableChangeOfANewerVersionOrWithAnUnknownFlagIsRefused() {
        ChangeSerde<String> serde = new ChangeSerde<>(Serdes.String());
        Deserializer<Change<String>> reader = serde.deserializer();
        String topic = "app-groupby-repartition";
        byte[] v1 = serde.serializer().serialize(topic, new Change<>("old", "new"));
        assertEquals(new Change<>("old", "new"), reader.deserialize(topic, v1));
        assertRefused(
                () -> reader.deserialize(topic, withVersion(v1, 2)),
                "Repartition topic '" + topic + "'",
                "table change in format version 2",
                "reads version 1 only");
        assertRefused(() -> reader.deserialize(topic, withFlag(v1, 0x04)), "table change", "flags 0x4");
    }

    @Test
    void aJoinedRowOfAnotherKindIsRefused() {
        byte[] joined = JoinedRows.encode(new byte[] {1}, null, 7);
        assertEquals(7, JoinedRows.timestampOf(joined));
        byte[] other = withVersion(joined, 'K');
        assertRefused(() -> JoinedRows.timestampOf(other), "A join's store", "joined row of kind 75", "'J'");
        assertRefused(() -> JoinedRows.leftRow(other), "joined row of kind 75");
    }
}
