package io.weir.streams.internals.state;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * The identity of an instance, kept in its state directory ({@code weir-process-id}) so that a
 * restarted instance has the same transactional ids as before and fences its dead predecessor's
 * producers at once.
 */
public final class ProcessId {

    /** The file, in the application's state directory, that holds the id. */
    public static final String FILE = "weir-process-id";

    private ProcessId() {}

    /** The id stored under {@code dir}, created (with the directory) on first use. */
    public static String load(Path dir) {
        Path file = dir.resolve(FILE);
        try {
            if (Files.exists(file)) {
                String id = Files.readString(file, StandardCharsets.UTF_8).trim();
                if (!id.isEmpty()) {
                    return id;
                }
            }
            Files.createDirectories(dir);
            String id = UUID.randomUUID().toString();
            Files.writeString(file, id, StandardCharsets.UTF_8);
            return id;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot read or write the process id in " + dir + " (state.dir must be writable)", e);
        }
    }
}
