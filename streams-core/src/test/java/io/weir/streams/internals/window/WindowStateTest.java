package io.weir.streams.internals.window;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The stored form of a window's state reads back exactly, whatever it holds. */
class WindowStateTest {

    private static final Serde<Long> LONGS = Serdes.Long();

    static List<WindowState<Long>> states() {
        WindowState<Long> fresh = WindowState.empty(0L);
        return List.of(
                fresh,
                fresh.added(5L, 1_000),
                WindowState.<Long>empty(null),
                fresh.added(7L, 2_000).afterPane(7L, 7L),
                fresh.added(7L, 2_000).afterPane(null, null).with(WindowState.PENDING),
                new WindowState<>(Long.MAX_VALUE, Long.MIN_VALUE, 300, 70_000, -5, WindowState.PENDING | 4),
                new WindowState<>(1L, null, Integer.MAX_VALUE, Integer.MAX_VALUE, 9, WindowState.PENDING));
    }

    @ParameterizedTest
    @MethodSource("states")
    void aStateReadsBackExactlyWithTheLargestEventTimeWhenKept(WindowState<Long> state) {
        WindowState<Long> kept = WindowState.decode(state.encode(LONGS.serializer(), "t", true), LONGS.deserializer(), "t");
        assertEquals(state, kept);
        WindowState<Long> dropped = WindowState.decode(state.encode(LONGS.serializer(), "t", false), LONGS.deserializer(), "t");
        assertEquals(new WindowState<>(state.aggregate(), state.emitted(), state.panes(), state.sinceLastPane(),
                Long.MIN_VALUE, state.flags()), dropped, "without the event time, everything else");
        byte[] stored = state.encode(LONGS.serializer(), "t", false);
        assertEquals(state.has(WindowState.PENDING), WindowState.has(stored, WindowState.PENDING));
        if (state.panes() < 128 && state.sinceLastPane() < 128) {
            int values = (state.aggregate() == null ? 0 : 8) + (state.emitted() == null ? 0 : 1 + 8);
            assertEquals(3, stored.length - values, "three bytes of bookkeeping for small counts");
        }
    }
}
