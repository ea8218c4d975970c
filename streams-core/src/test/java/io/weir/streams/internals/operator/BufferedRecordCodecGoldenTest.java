package io.weir.streams.internals.operator;

import io.weir.streams.internals.testing.GoldenBytes;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The stored form of a held record (format version 1), byte for byte: a stream–stream join's buffers and
 * an aligned stream–table join's waiting records hold it.
 */
class BufferedRecordCodecGoldenTest {

    private final BufferedRecordCodec<String, Long> codec =
            new BufferedRecordCodec<>("buffer", Serdes.String(), Serdes.Long());

    private record Held(
            String what, @Nullable String key, @Nullable Long value, Headers headers) {}

    private static Headers headers(String... namesAndValues) {
        RecordHeaders headers = new RecordHeaders();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            String value = namesAndValues[i + 1];
            headers.add(namesAndValues[i], value == null ? null : value.getBytes(StandardCharsets.UTF_8));
        }
        return headers;
    }

    private static final List<Held> RECORDS = List.of(
            new Held("key \"k\", value 42, no headers", "k", 42L, headers()),
            new Held("no key (a join keeps it in the store key), value -1, no headers", null, -1L, headers()),
            new Held("key \"k\", a null value, no headers", "k", null, headers()),
            new Held(
                    "key \"k\", value 7, headers trace=abc, empty=(empty), none=(null), é=1",
                    "k",
                    7L,
                    headers("trace", "abc", "empty", "", "none", null, "é", "1")),
            new Held("an empty key, value Long.MIN_VALUE, no headers", "", Long.MIN_VALUE, headers()));

    @Test
    void heldRecordsAreStoredAsTheGoldenBytes() {
        GoldenBytes golden = GoldenBytes.of("buffered-record");
        for (Held h : RECORDS) {
            golden.add(h.what(), codec.encode(h.key(), h.value(), h.headers()));
        }
        List<GoldenBytes.Entry> stored = golden.verify();
        for (int i = 0; i < RECORDS.size(); i++) {
            Held h = RECORDS.get(i);
            BufferedRecordCodec.Decoded<String, Long> read =
                    codec.decode(stored.get(i).bytes());
            assertEquals(h.key(), read.key(), h.what());
            assertEquals(h.value(), read.value(), h.what());
            assertEquals(describe(h.headers()), describe(read.headers()), h.what());
        }
    }

    private static List<String> describe(Headers headers) {
        List<String> out = new ArrayList<>();
        for (Header h : headers) {
            out.add(h.key() + "=" + (h.value() == null ? "(null)" : new String(h.value(), StandardCharsets.UTF_8)));
        }
        return out;
    }
}
