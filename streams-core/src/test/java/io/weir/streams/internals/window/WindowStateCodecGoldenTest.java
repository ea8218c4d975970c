package io.weir.streams.internals.window;

import io.weir.streams.internals.testing.GoldenBytes;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The stored form of a window's state (format version 1), byte for byte: every window store and changelog. */
class WindowStateCodecGoldenTest {

    private final WindowStateCodec<Long> codec = new WindowStateCodec<>("counts", Serdes.Long());

    private record Stored(String what, WindowState<Long> state, boolean withMaxEventTime) {}

    private static final WindowState<Long> FRESH = WindowState.empty(0L);

    private static final List<Stored> STATES = List.of(
            new Stored("a fresh count of 0, no pane yet", FRESH, false),
            new Stored("a count of 5 after a record at 1000, with its event time", FRESH.added(5L, 1_000), true),
            new Stored("a reduce before its first value (null aggregate)", WindowState.<Long>empty(null), false),
            new Stored(
                    "7 emitted in a pane (emitted value kept)",
                    FRESH.added(7L, 2_000).afterPane(7L, 7L, false),
                    false),
            new Stored(
                    "a pending discarding delta after a pane: null aggregate, null emitted",
                    FRESH.added(7L, 2_000).afterPane(null, null, true).with(WindowState.PENDING),
                    false),
            new Stored(
                    "300 panes (two-byte varint), emitted Long.MIN_VALUE, event time -5 kept",
                    new WindowState<>(
                            Long.MAX_VALUE,
                            Long.MIN_VALUE,
                            300,
                            70_000,
                            -5,
                            WindowState.PENDING | WindowState.HAS_EMITTED),
                    true));

    @Test
    void windowStatesAreStoredAsTheGoldenBytes() {
        GoldenBytes golden = GoldenBytes.of("window-state");
        for (Stored s : STATES) {
            golden.add(s.what(), codec.encode(s.state(), s.withMaxEventTime()));
        }
        List<GoldenBytes.Entry> stored = golden.verify();
        for (int i = 0; i < STATES.size(); i++) {
            Stored s = STATES.get(i);
            WindowState<Long> state = s.state();
            WindowState<Long> expected = s.withMaxEventTime()
                    ? state
                    : new WindowState<>(
                            state.aggregate(),
                            state.emitted(),
                            state.panes(),
                            state.sinceLastPane(),
                            Long.MIN_VALUE,
                            state.flags());
            assertEquals(expected, codec.decode(stored.get(i).bytes()), s.what());
        }
    }
}
