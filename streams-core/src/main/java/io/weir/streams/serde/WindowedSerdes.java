package io.weir.streams.serde;

import io.weir.streams.time.Window;
import io.weir.streams.time.Windowed;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

import java.nio.ByteBuffer;

/**
 * Serdes for {@link Windowed} keys. Wire format: the inner key's bytes, then the window start and
 * end as two 8-byte big-endian longs — self-describing, so any window type reads back exactly.
 */
public final class WindowedSerdes {

    private static final int WINDOW_BYTES = 16;

    private WindowedSerdes() {}

    /**
     * Windowed keys whose inner key uses {@code inner}.
     *
     * @param <K> the inner key type
     * @param inner the serde of the inner key
     * @return a serde of windowed keys; null reads and writes as null
     */
    public static <K> Serde<Windowed<K>> of(Serde<K> inner) {
        Serializer<K> keySerializer = inner.serializer();
        Deserializer<K> keyDeserializer = inner.deserializer();
        Serializer<Windowed<K>> serializer = (topic, windowed) -> {
            if (windowed == null) {
                return null;
            }
            byte[] key = keySerializer.serialize(topic, windowed.key());
            int keyLength = key == null ? 0 : key.length;
            ByteBuffer buffer = ByteBuffer.allocate(keyLength + WINDOW_BYTES);
            if (key != null) {
                buffer.put(key);
            }
            return buffer.putLong(windowed.window().start())
                    .putLong(windowed.window().end())
                    .array();
        };
        Deserializer<Windowed<K>> deserializer = (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            if (bytes.length < WINDOW_BYTES) {
                throw new SerializationException(
                        "A windowed key needs at least " + WINDOW_BYTES + " bytes, got " + bytes.length);
            }
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            byte[] key = new byte[bytes.length - WINDOW_BYTES];
            buffer.get(key);
            long start = buffer.getLong();
            long end = buffer.getLong();
            return new Windowed<>(keyDeserializer.deserialize(topic, key), new Window(start, end));
        };
        return org.apache.kafka.common.serialization.Serdes.serdeFrom(serializer, deserializer);
    }

    /**
     * Windowed keys whose inner key is a UTF-8 string.
     *
     * @return a serde of windowed string keys
     */
    public static Serde<Windowed<String>> string() {
        return of(Serdes.String());
    }

    /**
     * Windowed keys whose inner key is a long.
     *
     * @return a serde of windowed long keys
     */
    public static Serde<Windowed<Long>> longs() {
        return of(Serdes.Long());
    }
}
