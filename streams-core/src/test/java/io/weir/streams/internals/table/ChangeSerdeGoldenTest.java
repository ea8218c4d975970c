package io.weir.streams.internals.table;

import io.weir.streams.internals.testing.GoldenBytes;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A table change in a repartition topic (format version 1), byte for byte: what one release writes, the
 * next reads during a rolling upgrade.
 */
class ChangeSerdeGoldenTest {

    private static final String TOPIC = "app-groupby-repartition";

    private final ChangeSerde<String> serde = new ChangeSerde<>(Serdes.String());

    private static final List<Change<String>> CHANGES = List.of(
            Change.insert("new"),
            new Change<>("old", null),
            new Change<>("old", "new"),
            new Change<>("", "x"),
            new Change<>("o".repeat(200), ""));

    private static final List<String> WHAT = List.of(
            "an insert: no old value, new \"new\"",
            "a delete (the subtraction alone): old \"old\", no new value",
            "an update: old \"old\", new \"new\"",
            "an empty (not null) old value, new \"x\"",
            "an old value of 200 bytes (two-byte varint length), an empty (not null) new value");

    @Test
    void changesAreWrittenAsTheGoldenBytes() {
        GoldenBytes golden = GoldenBytes.of("change");
        for (int i = 0; i < CHANGES.size(); i++) {
            golden.add(WHAT.get(i), serde.serializer().serialize(TOPIC, CHANGES.get(i)));
        }
        List<GoldenBytes.Entry> stored = golden.verify();
        for (int i = 0; i < CHANGES.size(); i++) {
            assertEquals(
                    CHANGES.get(i),
                    serde.deserializer().deserialize(TOPIC, stored.get(i).bytes()),
                    WHAT.get(i));
        }
    }
}
