package io.weir.streams.internals.table;

import io.weir.streams.internals.state.UnknownFormatException;
import io.weir.streams.internals.state.Varints;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

import java.nio.ByteBuffer;
import java.util.Map;

/**
 * The form of a {@link Change} in a repartition topic, so that a re-keyed table's subtraction and
 * addition travel as one record when both land on the same new key:
 * {@code [version: byte][flags: byte]([old length: varint][old bytes] when HAS_OLD)[new bytes when HAS_NEW]}.
 * The values go through the table's value serde. It is never configured itself: the value serde it
 * wraps is registered with the topology and configured there. A version this code does not know, or a
 * flag version 1 does not set, fails with an {@link UnknownFormatException}, which no error handler
 * skips: the record is a newer instance's, not bad data.
 */
public final class ChangeSerde<V> implements Serde<Change<V>> {

    static final byte VERSION = 1;
    private static final int HAS_OLD = 1;
    private static final int HAS_NEW = 2;

    private final Serde<V> values;

    public ChangeSerde(Serde<V> values) {
        this.values = values;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        // The wrapped serde is configured as the table's value serde.
    }

    @Override
    public Serializer<Change<V>> serializer() {
        Serializer<V> inner = values.serializer();
        return (topic, change) -> {
            byte[] old = change.oldValue() == null ? null : inner.serialize(topic, change.oldValue());
            byte[] neu = change.newValue() == null ? null : inner.serialize(topic, change.newValue());
            int length = 2 + (old == null ? 0 : Varints.size(old.length) + old.length) + (neu == null ? 0 : neu.length);
            ByteBuffer buffer = ByteBuffer.allocate(length).put(VERSION).put((byte)
                    ((old == null ? 0 : HAS_OLD) | (neu == null ? 0 : HAS_NEW)));
            if (old != null) {
                Varints.write(old.length, buffer);
                buffer.put(old);
            }
            if (neu != null) {
                buffer.put(neu);
            }
            return buffer.array();
        };
    }

    @Override
    public Deserializer<Change<V>> deserializer() {
        Deserializer<V> inner = values.deserializer();
        return (topic, bytes) -> {
            String where = "Repartition topic '" + topic + "'";
            if (bytes == null) {
                throw new SerializationException(where + " holds a record without a value, which no table change is");
            }
            UnknownFormatException.check(where, "table change", bytes, VERSION, 2, HAS_OLD | HAS_NEW);
            ByteBuffer buffer = ByteBuffer.wrap(bytes, 2, bytes.length - 2);
            int flags = bytes[1];
            V old = null;
            if ((flags & HAS_OLD) != 0) {
                byte[] oldBytes = new byte[Varints.read(buffer)];
                buffer.get(oldBytes);
                old = inner.deserialize(topic, oldBytes);
            }
            V neu = null;
            if ((flags & HAS_NEW) != 0) {
                byte[] newBytes = new byte[buffer.remaining()];
                buffer.get(newBytes);
                neu = inner.deserialize(topic, newBytes);
            }
            return new Change<>(old, neu);
        };
    }
}
