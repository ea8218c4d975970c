package io.weir.streams.serde;

import io.weir.streams.internals.testing.GoldenBytes;
import io.weir.streams.time.Window;
import io.weir.streams.time.Windowed;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Windowed keys as {@link WindowedSerdes} writes them ({@code [inner key bytes][start: 8][end: 8]}), byte for
 * byte: the keys of a windowed aggregation's table view ({@code toTable()}) in its store and changelog,
 * and of windowed results users write to their topics.
 */
class WindowedSerdesGoldenTest {

    private static final String TOPIC = "window-table";

    private record Key(String what, Windowed<String> key) {}

    private static final List<Key> KEYS = List.of(
            new Key("\"a\" in window [0, 60000)", new Windowed<>("a", new Window(0, 60_000))),
            new Key(
                    "\"b\" in window [-60000, 0) (negative times, not sign-flipped)",
                    new Windowed<>("b", new Window(-60_000, 0))),
            new Key(
                    "an empty key in a global window [0, Long.MAX_VALUE)",
                    new Windowed<>("", new Window(0, Long.MAX_VALUE))));

    @Test
    void windowedKeysAreWrittenAsTheGoldenBytes() {
        Serde<Windowed<String>> serde = WindowedSerdes.string();
        GoldenBytes golden = GoldenBytes.of("windowed-key");
        KEYS.forEach(k -> golden.add(k.what(), serde.serializer().serialize(TOPIC, k.key())));
        List<GoldenBytes.Entry> stored = golden.verify();
        for (int i = 0; i < KEYS.size(); i++) {
            assertEquals(
                    KEYS.get(i).key(),
                    serde.deserializer().deserialize(TOPIC, stored.get(i).bytes()));
        }
    }
}
