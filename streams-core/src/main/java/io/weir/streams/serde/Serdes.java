package io.weir.streams.serde;

import org.apache.kafka.common.serialization.Serde;

import java.util.UUID;

/**
 * Serdes for common types. They are Kafka's own {@link Serde} implementations (so serdes written for
 * Kafka clients or Kafka Streams work in Weir too), plus UUID and JSON.
 */
public final class Serdes {

    private Serdes() {}

    /**
     * UTF-8 strings.
     *
     * @return Kafka's string serde
     */
    public static Serde<String> String() {
        return org.apache.kafka.common.serialization.Serdes.String();
    }

    /**
     * 8-byte big-endian longs.
     *
     * @return Kafka's long serde
     */
    public static Serde<Long> Long() {
        return org.apache.kafka.common.serialization.Serdes.Long();
    }

    /**
     * 4-byte big-endian integers.
     *
     * @return Kafka's integer serde
     */
    public static Serde<Integer> Integer() {
        return org.apache.kafka.common.serialization.Serdes.Integer();
    }

    /**
     * 8-byte IEEE 754 doubles.
     *
     * @return Kafka's double serde
     */
    public static Serde<Double> Double() {
        return org.apache.kafka.common.serialization.Serdes.Double();
    }

    /**
     * Bytes as they are.
     *
     * @return Kafka's byte-array serde
     */
    public static Serde<byte[]> ByteArray() {
        return org.apache.kafka.common.serialization.Serdes.ByteArray();
    }

    /**
     * UUIDs in their 36-character string form, as Kafka's UUID serde writes them.
     *
     * @return Kafka's UUID serde
     */
    public static Serde<UUID> UUID() {
        return org.apache.kafka.common.serialization.Serdes.UUID();
    }

    /**
     * JSON through Jackson, for any class Jackson can bind, records included.
     *
     * @param <T> the bound type
     * @param type the class values are read as
     * @return a {@link JsonSerde} of {@code type} with the default mapper
     */
    public static <T> Serde<T> Json(Class<T> type) {
        return JsonSerde.of(type);
    }
}
