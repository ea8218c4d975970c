package io.weir.streams.internals.window;

import io.weir.streams.internals.testing.FormatRefusals;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The stored form of a window's state: reads back exactly, carries its format version, refuses others. */
class WindowStateCodecTest {

    private final WindowStateCodec<Long> codec = new WindowStateCodec<>("counts", Serdes.Long());

    static List<WindowState<Long>> states() {
        WindowState<Long> fresh = WindowState.empty(0L);
        return List.of(
                fresh,
                fresh.added(5L, 1_000),
                WindowState.<Long>empty(null),
                fresh.added(7L, 2_000).afterPane(7L, 7L, false),
                fresh.added(7L, 2_000).afterPane(null, null, true).with(WindowState.PENDING),
                new WindowState<>(
                        Long.MAX_VALUE, Long.MIN_VALUE, 300, 70_000, -5, WindowState.PENDING | WindowState.HAS_EMITTED),
                new WindowState<>(1L, null, Integer.MAX_VALUE, Integer.MAX_VALUE, 9, WindowState.PENDING));
    }

    @ParameterizedTest
    @MethodSource("states")
    void aStateReadsBackExactlyWithTheLargestEventTimeWhenKept(WindowState<Long> state) {
        assertEquals(state, codec.decode(codec.encode(state, true)));
        assertEquals(
                new WindowState<>(
                        state.aggregate(),
                        state.emitted(),
                        state.panes(),
                        state.sinceLastPane(),
                        Long.MIN_VALUE,
                        state.flags()),
                codec.decode(codec.encode(state, false)),
                "without the event time, everything else");
    }

    @ParameterizedTest
    @MethodSource("states")
    void whetherAStateIsPendingIsReadWithoutDecodingIt(WindowState<Long> state) {
        assertEquals(state.has(WindowState.PENDING), codec.pending(codec.encode(state, false)));
    }

    @ParameterizedTest
    @MethodSource("states")
    void smallCountsTakeFourBytesOfBookkeepingVersionIncluded(WindowState<Long> state) {
        byte[] stored = codec.encode(state, false);
        assertEquals(WindowStateCodec.VERSION, stored[0], "the format version comes first");
        if (state.panes() < 128 && state.sinceLastPane() < 128) {
            int values = (state.aggregate() == null ? 0 : 8) + (state.emitted() == null ? 0 : 1 + 8);
            assertEquals(4, stored.length - values);
        }
    }

    @Test
    void aStateInAnotherFormatVersionIsRefusedNamingTheStore() {
        byte[] stored = codec.encode(WindowState.empty(3L), false);
        byte[] newer = FormatRefusals.withVersion(stored, 2);
        FormatRefusals.assertRefused(() -> codec.decode(newer), "'counts'", "format version 2", "reads version 1");
        FormatRefusals.assertRefused(() -> codec.pending(newer), "'counts'", "format version 2");
        FormatRefusals.assertRefused(() -> codec.pending(FormatRefusals.withFlag(stored, 0x40)), "flags 0x40");
    }

    @Test
    void anEmittedValueTheSerdeWritesAsNullReadsBackAsNoEmittedValue() {
        Serde<String> emptyAsNull = new Serdes.WrapperSerde<>(
                (topic, value) -> value.isEmpty() ? null : value.getBytes(StandardCharsets.UTF_8),
                (topic, bytes) -> bytes == null ? "" : new String(bytes, StandardCharsets.UTF_8));
        WindowStateCodec<String> strings = new WindowStateCodec<>("s", emptyAsNull);
        WindowState<String> state = WindowState.empty("x").added("ab", 1).afterPane("ab", "", false);
        WindowState<String> read = strings.decode(strings.encode(state, false));
        assertEquals("ab", read.aggregate(), "the aggregate after it is read right");
        assertNull(read.emitted());
    }
}
