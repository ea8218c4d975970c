package io.weir.streams.internals.operator;

import io.weir.streams.internals.state.UnknownFormatException;
import io.weir.streams.internals.state.Varints;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The stored form of a record an operator holds until later (a join's buffered side, a record waiting
 * for its table), format version 1: {@code [version: byte][key: bytes][value: bytes][header count:
 * varint]([name: bytes][value: bytes])*}, each {@code bytes} a varint length plus one (0 for null) and
 * the bytes. Key and value go through the user's serdes with the store's name as the topic; the event
 * time is the operator's to keep (in the store key). A version this code does not know fails with an
 * {@link UnknownFormatException} naming the store. Stateless apart from the serdes.
 */
public final class BufferedRecordCodec<K, V> {

    /** A decoded record. */
    public record Decoded<K, V>(@Nullable K key, @Nullable V value, Headers headers) {}

    static final byte VERSION = 1;
    /** The version, a null key, a null value and no headers. */
    private static final int MIN_LENGTH = 4;

    private final String store;
    private final Serializer<K> keySerializer;
    private final Deserializer<K> keyDeserializer;
    private final Serializer<V> valueSerializer;
    private final Deserializer<V> valueDeserializer;

    public BufferedRecordCodec(String store, Serde<K> keySerde, Serde<V> valueSerde) {
        this.store = store;
        this.keySerializer = keySerde.serializer();
        this.keyDeserializer = keySerde.deserializer();
        this.valueSerializer = valueSerde.serializer();
        this.valueDeserializer = valueSerde.deserializer();
    }

    /** The stored form of a record; a null key is not stored (the store key holds it). */
    public byte[] encode(@Nullable K key, @Nullable V value, Headers headers) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(VERSION);
        write(out, key == null ? null : keySerializer.serialize(store, key));
        write(out, value == null ? null : valueSerializer.serialize(store, value));
        Header[] all = headers.toArray();
        Varints.write(all.length, out);
        for (Header h : all) {
            write(out, h.key().getBytes(StandardCharsets.UTF_8));
            write(out, h.value());
        }
        return out.toByteArray();
    }

    public Decoded<K, V> decode(byte[] stored) {
        UnknownFormatException.check("Store '" + store + "'", "buffered record", stored, VERSION, MIN_LENGTH);
        ByteBuffer in = ByteBuffer.wrap(stored, 1, stored.length - 1);
        byte[] keyBytes = read(in);
        byte[] valueBytes = read(in);
        int count = Varints.read(in);
        RecordHeaders headers = new RecordHeaders();
        for (int i = 0; i < count; i++) {
            byte[] name = read(in);
            headers.add(new String(name == null ? new byte[0] : name, StandardCharsets.UTF_8), read(in));
        }
        return new Decoded<>(
                keyBytes == null ? null : keyDeserializer.deserialize(store, keyBytes),
                valueBytes == null ? null : valueDeserializer.deserialize(store, valueBytes),
                headers);
    }

    private static void write(ByteArrayOutputStream out, byte @Nullable [] bytes) {
        Varints.write(bytes == null ? 0 : bytes.length + 1, out);
        if (bytes != null) {
            out.writeBytes(bytes);
        }
    }

    private static byte @Nullable [] read(ByteBuffer in) {
        int length = Varints.read(in) - 1;
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }
}
