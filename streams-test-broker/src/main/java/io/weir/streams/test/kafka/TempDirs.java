package io.weir.streams.test.kafka;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Deletes directory trees a test made: a state directory, a broker's data. */
public final class TempDirs {

    private static final Logger log = LoggerFactory.getLogger(TempDirs.class);

    private TempDirs() {}

    /**
     * Deletes {@code dir} and everything below it; a missing dir is fine, a failure is logged.
     *
     * @param dir the directory to delete
     */
    public static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(TempDirs::deleteOne);
        } catch (IOException | RuntimeException e) {
            log.warn("Could not delete {} completely", dir, e);
        }
    }

    private static void deleteOne(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (NoSuchFileException gone) {
            // removed concurrently (e.g. by the broker's own cleanup): what we wanted
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
