package io.weir.streams.internals.reset;

import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * An application's local state directory, {@code <state.dir>/<application.id>}, as the reset sees it. A
 * running instance holds an exclusive lock on its {@value #LOCK_FILE} file (the runtime's {@code
 * StateDirectory}) for as long as it lives, so a directory whose lock cannot be taken belongs to a running
 * instance and is never cleared. Clearing deletes everything but the lock file and {@value
 * #PROCESS_ID_FILE}, the instance's identity (the runtime's {@code ProcessId}): an instance restarted on the
 * cleared directory keeps its transactional ids and static membership id, so it fences the producers of its
 * predecessor and aborts whatever transaction that one left open.
 */
public final class LocalState {

    /** The runtime's lock file ({@code internals.state.StateDirectory}). */
    static final String LOCK_FILE = ".lock";

    /** The runtime's identity file ({@code internals.runtime.ProcessId}). */
    static final String PROCESS_ID_FILE = "weir-process-id";

    private LocalState() {}

    /**
     * What a directory holds and who holds it, read without changing it.
     *
     * @param entries the names of the entries a clear deletes, sorted
     * @param holder who holds the lock ("another process (pid 42)"), or null when nobody does
     */
    record Inspection(List<String> entries, @Nullable String holder) {}

    static Inspection inspect(Path directory) {
        if (!Files.isDirectory(directory)) {
            return new Inspection(List.of(), null);
        }
        return new Inspection(entries(directory), holder(directory));
    }

    /** The entries a clear deletes: all but the lock and the identity. */
    private static List<String> entries(Path directory) {
        List<String> names = new ArrayList<>();
        try (Stream<Path> children = Files.list(directory)) {
            children.map(p -> p.getFileName().toString())
                    .filter(n -> !n.equals(LOCK_FILE) && !n.equals(PROCESS_ID_FILE))
                    .sorted()
                    .forEach(names::add);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list the state directory " + directory, e);
        }
        return names;
    }

    /** Who holds the directory's lock, or null when nobody does (the lock is taken and released at once). */
    private static @Nullable String holder(Path directory) {
        Path lockFile = directory.resolve(LOCK_FILE);
        if (!Files.exists(lockFile)) {
            return null; // an instance makes the file before it locks it: none ran here since it was removed
        }
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                return describeHolder(channel);
            }
            lock.release();
            return null;
        } catch (OverlappingFileLockException e) {
            return "a Weir instance in this JVM";
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot check the lock of the state directory " + directory, e);
        }
    }

    private static String describeHolder(FileChannel channel) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(256);
        channel.read(buffer, 0);
        String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8).trim();
        return text.isEmpty() ? "another process" : "another process (" + text + ")";
    }

    /**
     * Takes the directory's lock for the length of a reset, so that no instance starts on it meanwhile, or
     * returns null when the directory does not exist (nothing to clear).
     *
     * @throws IllegalStateException naming the holder when an instance holds it
     */
    static @Nullable Lock lock(Path directory) {
        if (!Files.isDirectory(directory)) {
            return null;
        }
        Path lockFile = directory.resolve(LOCK_FILE);
        FileChannel channel;
        try {
            channel = FileChannel.open(
                    lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open the lock of the state directory " + directory, e);
        }
        try {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw inUse(directory, describeHolder(channel));
            }
            channel.truncate(0);
            channel.write(
                    ByteBuffer.wrap(
                            ("weir-reset pid " + ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8)),
                    0);
            return new Lock(directory, channel, lock);
        } catch (OverlappingFileLockException e) {
            close(channel);
            throw inUse(directory, "a Weir instance in this JVM");
        } catch (IOException e) {
            close(channel);
            throw new UncheckedIOException("Cannot lock the state directory " + directory, e);
        } catch (RuntimeException e) {
            close(channel);
            throw e;
        }
    }

    static String inUseMessage(Path directory, String holder) {
        return "the state directory " + directory + " is in use by " + holder
                + ": an instance of the application runs on this machine. Stop it first";
    }

    private static IllegalStateException inUse(Path directory, String holder) {
        return new IllegalStateException(inUseMessage(directory, holder));
    }

    private static void close(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing after a failure; the failure is what matters
        }
    }

    /** The directory's lock, held by the reset; {@link #clear} deletes the state under it. */
    static final class Lock implements AutoCloseable {

        private final Path directory;
        private final FileChannel channel;
        private final FileLock lock;

        private Lock(Path directory, FileChannel channel, FileLock lock) {
            this.directory = directory;
            this.channel = channel;
            this.lock = lock;
        }

        /** Deletes every entry but the lock and the identity; returns their names. */
        List<String> clear() {
            List<String> names = entries(directory);
            for (String name : names) {
                deleteTree(directory.resolve(name));
            }
            return names;
        }

        private static void deleteTree(Path root) {
            try (Stream<Path> paths = Files.walk(root)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot delete " + root + " (the reset stopped there)", e);
            }
        }

        @Override
        public void close() {
            try {
                channel.truncate(0);
                lock.release();
                channel.close();
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot release the lock of " + directory, e);
            }
        }
    }
}
