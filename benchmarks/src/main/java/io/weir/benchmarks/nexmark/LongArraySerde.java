package io.weir.benchmarks.nexmark;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

import java.nio.ByteBuffer;

/**
 * Arrays of longs as 8 big-endian bytes each: the accumulators of the queries that keep a few numbers per
 * key (a maximum and the ids that reach it), the same bytes in both engines' stores.
 */
final class LongArraySerde implements Serde<long[]> {

    static final LongArraySerde INSTANCE = new LongArraySerde();

    private LongArraySerde() {}

    @Override
    public Serializer<long[]> serializer() {
        return (topic, values) -> {
            if (values == null) {
                return null;
            }
            ByteBuffer bytes = ByteBuffer.allocate(values.length * Long.BYTES);
            for (long v : values) {
                bytes.putLong(v);
            }
            return bytes.array();
        };
    }

    @Override
    public Deserializer<long[]> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            if (bytes.length % Long.BYTES != 0) {
                throw new SerializationException("An array of longs takes a multiple of 8 bytes, not " + bytes.length
                        + " (topic " + topic + ")");
            }
            long[] values = new long[bytes.length / Long.BYTES];
            ByteBuffer.wrap(bytes).asLongBuffer().get(values);
            return values;
        };
    }
}
