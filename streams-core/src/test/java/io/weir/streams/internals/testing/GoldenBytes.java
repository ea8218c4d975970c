package io.weir.streams.internals.testing;

import io.weir.streams.internals.state.StoreBatch;
import io.weir.streams.internals.task.TaskStores;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Golden bytes of a stored format: the exact bytes a codec or an operator writes for fixed values, checked
 * in under {@code src/test/resources/golden/<name>.hex}. Stores, changelogs and repartition topics outlive
 * the code that wrote them (a rolling upgrade, a restore from a changelog written by the previous release),
 * so the bytes of a released format may never change silently: a test encodes its fixed values, {@link
 * #verify()} compares them with the fixture record by record, and the test reads the fixture back to its
 * values.
 *
 * <p>A fixture is written once, by running its test with {@code -Dweir.golden.write=true}, and checked in.
 * Without the property the fixture is only read. Fixture text: {@code #} lines are comments (the last one
 * before a record says what it is); a record is one line of fields in hex separated by a space, {@code -}
 * for a null field (a tombstone) and {@code .} for an empty one.
 */
public final class GoldenBytes {

    /** The system property that (re)writes fixtures instead of comparing with them. */
    public static final String WRITE_PROPERTY = "weir.golden.write";

    private static final Path DIR = Path.of("src", "test", "resources", "golden");
    private static final HexFormat HEX = HexFormat.of();
    private static final String NULL = "-";
    private static final String EMPTY = ".";

    /** One record of a fixture: what it is, and its fields (null: absent, as a tombstone's value). */
    public record Entry(String comment, List<byte @Nullable []> fields) {

        /** Field {@code i}, which must not be null. */
        public byte[] field(int i) {
            byte[] field = fields.get(i);
            if (field == null) {
                throw new AssertionError("Field " + i + " of '" + comment + "' is null");
            }
            return field;
        }

        /** Field {@code i}, or null. */
        public byte @Nullable [] fieldOrNull(int i) {
            return fields.get(i);
        }

        /** The only field of a one-field record. */
        public byte[] bytes() {
            assertEquals(1, fields.size(), "fields of '" + comment + "'");
            return field(0);
        }
    }

    private final String name;
    private final Path file;
    private final boolean write;
    private final List<Entry> entries = new ArrayList<>();

    GoldenBytes(String name, Path dir, boolean write) {
        this.name = name;
        this.file = dir.resolve(name + ".hex");
        this.write = write;
    }

    /** The fixture {@code golden/<name>.hex}, written instead of compared under {@code -Dweir.golden.write=true}. */
    public static GoldenBytes of(String name) {
        return new GoldenBytes(name, DIR, Boolean.getBoolean(WRITE_PROPERTY));
    }

    /** Adds a record: {@code comment} says what it is (one line), {@code fields} are its bytes (null: absent). */
    public GoldenBytes add(String comment, byte @Nullable []... fields) {
        if (comment.contains("\n")) {
            throw new IllegalArgumentException("A comment is one line: " + comment);
        }
        if (fields.length == 0) {
            throw new IllegalArgumentException("A record has at least one field");
        }
        entries.add(new Entry(comment, Arrays.asList(fields.clone())));
        return this;
    }

    /**
     * Adds one record per write of a commit to one store (as {@link #commit} returns them): its key and value
     * (null: a tombstone), each with its comment, in order.
     */
    public GoldenBytes addWrites(@Nullable List<StoreBatch.Put> writes, String... comments) {
        List<StoreBatch.Put> all = writes == null ? List.of() : writes;
        assertEquals(comments.length, all.size(), "one comment per write to the store: " + describe(all));
        for (int i = 0; i < comments.length; i++) {
            add(
                    comments[i] + (all.get(i).value() == null ? " (tombstone)" : ""),
                    all.get(i).key(),
                    all.get(i).value());
        }
        return this;
    }

    private static List<String> describe(List<StoreBatch.Put> writes) {
        List<String> out = new ArrayList<>();
        for (StoreBatch.Put p : writes) {
            out.add(HEX.formatHex(p.key()) + "=" + (p.value() == null ? NULL : HEX.formatHex(p.value())));
        }
        return out;
    }

    /**
     * Compares the records added with the fixture (after writing it, under {@code -Dweir.golden.write=true})
     * and returns the fixture's records as read from the file, for the test to decode.
     */
    public List<Entry> verify() {
        if (write) {
            try {
                Files.createDirectories(file.getParent());
                Files.writeString(file, render(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        if (!Files.exists(file)) {
            fail("No golden fixture " + file + " for '" + name + "': write it once with -D" + WRITE_PROPERTY
                    + "=true, check that its bytes are the format as documented, and check it in");
        }
        List<Entry> stored = read(file);
        for (int i = 0; i < Math.max(entries.size(), stored.size()); i++) {
            Entry encoded = i < entries.size() ? entries.get(i) : null;
            Entry golden = i < stored.size() ? stored.get(i) : null;
            String what = encoded != null ? encoded.comment() : golden.comment();
            assertEquals(
                    golden == null ? "(no record)" : line(golden),
                    encoded == null ? "(no record)" : line(encoded),
                    changed(i, what));
        }
        return stored;
    }

    private String changed(int index, String what) {
        return "The stored format of '" + name + "' changed: record " + index + " (" + what + ") is not encoded "
                + "as in " + file + ". Released stores, changelogs and repartition topics hold these bytes and the "
                + "next release must read them, so a format change needs a new format version (a version byte "
                + "the old code refuses) and a migration that still reads the old version. Do not rewrite the "
                + "fixture to make this pass (-D" + WRITE_PROPERTY + "=true is for new fixtures and new records "
                + "only)";
    }

    private String render() {
        StringBuilder out = new StringBuilder()
                .append("# Golden bytes of stored format '")
                .append(name)
                .append("', written with -D")
                .append(WRITE_PROPERTY)
                .append("=true and compared by its test.\n")
                .append("# Each record: a comment line, then its fields in hex (\"-\" null, \".\" empty).\n")
                .append("# Never edit or rewrite to make a test pass: a format change needs a version bump and a ")
                .append("migration.\n");
        for (Entry e : entries) {
            out.append('\n')
                    .append("# ")
                    .append(e.comment())
                    .append('\n')
                    .append(line(e))
                    .append('\n');
        }
        return out.toString();
    }

    private static String line(Entry e) {
        List<String> fields = new ArrayList<>();
        for (byte[] field : e.fields()) {
            fields.add(field == null ? NULL : field.length == 0 ? EMPTY : HEX.formatHex(field));
        }
        return String.join(" ", fields);
    }

    /** The records of fixture {@code file}. */
    static List<Entry> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Entry> records = new ArrayList<>();
        String comment = "";
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("#")) {
                comment = line.substring(1).strip();
                continue;
            }
            List<byte @Nullable []> fields = new ArrayList<>();
            for (String field : line.split(" ", -1)) {
                fields.add(field.equals(NULL) ? null : field.equals(EMPTY) ? new byte[0] : HEX.parseHex(field));
            }
            records.add(new Entry(comment, fields));
        }
        return records;
    }

    /**
     * Commits every store of {@code stores} as a task does, and returns what each store's changelog got
     * (the last write per key; a null value deletes), by store, each store's writes in key order (byte
     * order, as the store sorts them, so that the order does not depend on the cache's).
     */
    public static Map<String, List<StoreBatch.Put>> commit(TaskStores stores) {
        List<TaskStores.StoreFlush> flushes = stores.prepareCommit();
        Map<String, List<StoreBatch.Put>> writes = new LinkedHashMap<>();
        for (TaskStores.StoreFlush flush : flushes) {
            List<StoreBatch.Put> puts = new ArrayList<>(flush.flush().changes());
            puts.sort((a, b) -> Arrays.compareUnsigned(a.key(), b.key()));
            if (!puts.isEmpty()) {
                writes.put(flush.store(), puts);
            }
        }
        stores.completeCommit(flushes, Map.of());
        return writes;
    }

    /**
     * Loads a store dump fixture (records of a key and a value, null deleting) into store {@code store} as a
     * restore from its changelog does, in the fixture's order; before the store's cache is first used.
     */
    public static void restore(TaskStores stores, String store, List<Entry> fixture) {
        List<StoreBatch.Put> puts = new ArrayList<>();
        for (Entry e : fixture) {
            assertEquals(2, e.fields().size(), "a store write is a key and a value: " + e.comment());
            puts.add(new StoreBatch.Put(e.field(0), e.fieldOrNull(1)));
        }
        stores.cache(store).store().ingest(puts);
    }
}
