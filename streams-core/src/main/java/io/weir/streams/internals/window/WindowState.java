package io.weir.streams.internals.window;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

import java.nio.ByteBuffer;

/**
 * What a window keeps between records: its aggregate, how many panes it has emitted, and whether its
 * on-time pane has fired. Stored as {@code [panes: int][flags: byte][aggregate bytes]}.
 */
record WindowState<A>(A aggregate, int panes, boolean onTimeFired) {

    private static final int HEADER = 5;

    WindowState<A> withAggregate(A newAggregate) {
        return new WindowState<>(newAggregate, panes, onTimeFired);
    }

    WindowState<A> afterPane(boolean onTime) {
        return new WindowState<>(aggregate, panes + 1, onTimeFired || onTime);
    }

    byte[] encode(Serializer<A> serializer, String topic) {
        byte[] agg = serializer.serialize(topic, aggregate);
        int length = agg == null ? 0 : agg.length;
        ByteBuffer buffer = ByteBuffer.allocate(HEADER + length).putInt(panes).put((byte) (onTimeFired ? 1 : 0));
        if (agg != null) {
            buffer.put(agg);
        }
        return buffer.array();
    }

    static <A> WindowState<A> decode(byte[] bytes, Deserializer<A> deserializer, String topic) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        int panes = buffer.getInt();
        boolean fired = buffer.get() == 1;
        byte[] agg = new byte[bytes.length - HEADER];
        buffer.get(agg);
        return new WindowState<>(deserializer.deserialize(topic, agg), panes, fired);
    }
}
