package io.weir.streams.serde;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.weir.streams.internals.Redaction;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

import java.io.IOException;

/**
 * JSON serde through Jackson for any class Jackson can bind, Java records included. Unknown JSON
 * properties are ignored (producers may add fields); malformed JSON fails with a
 * {@link SerializationException} naming the target type, which the topology's deserialization
 * error handler then decides on. {@code null} serializes to {@code null} (a tombstone) and back.
 * Instances are immutable and thread-safe.
 */
public final class JsonSerde<T> implements Serde<T> {

    private static final ObjectMapper DEFAULT_MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .findAndAddModules()
            .build();

    private final Class<T> type;
    private final ObjectMapper mapper;

    private JsonSerde(Class<T> type, ObjectMapper mapper) {
        this.type = type;
        this.mapper = mapper;
    }

    /**
     * A serde for {@code type} with Weir's default mapper.
     *
     * @param <T> the bound type
     * @param type the class values are read as
     * @return a serde that ignores unknown properties and registers the Jackson modules found on the class path
     */
    public static <T> JsonSerde<T> of(Class<T> type) {
        return new JsonSerde<>(type, DEFAULT_MAPPER);
    }

    /**
     * The same type through another mapper (custom modules, naming strategies).
     *
     * @param mapper the mapper to read and write with, used as configured (unknown properties included)
     * @return a serde of the same type through {@code mapper}
     */
    public JsonSerde<T> withMapper(ObjectMapper mapper) {
        return new JsonSerde<>(type, mapper);
    }

    @Override
    public Serializer<T> serializer() {
        return (topic, value) -> {
            if (value == null) {
                return null;
            }
            try {
                return mapper.writeValueAsBytes(value);
            } catch (IOException e) {
                throw new SerializationException(
                        "Cannot write " + type.getName() + " as JSON: " + Redaction.strip(e.getMessage()), e);
            }
        };
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            try {
                return mapper.readValue(bytes, type);
            } catch (JsonProcessingException e) {
                // getOriginalMessage leaves out Jackson's excerpt of the document, but quotes the value it
                // could not read: errors get logged and put in dead-letter headers, so that goes too.
                throw new SerializationException(
                        "Cannot read JSON as " + type.getName() + ": " + Redaction.strip(e.getOriginalMessage()));
            } catch (IOException e) {
                throw new SerializationException(
                        "Cannot read JSON as " + type.getName() + ": " + Redaction.strip(e.getMessage()));
            }
        };
    }

    @Override
    public String toString() {
        return "JsonSerde[" + type.getName() + "]";
    }

    /** Equal when they bind the same type through the same mapper: they read and write the same bytes. */
    @Override
    public boolean equals(Object o) {
        return o instanceof JsonSerde<?> other && other.type == type && other.mapper == mapper;
    }

    @Override
    public int hashCode() {
        return 31 * type.hashCode() + System.identityHashCode(mapper);
    }
}
