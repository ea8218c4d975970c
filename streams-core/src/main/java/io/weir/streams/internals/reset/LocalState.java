package io.weir.streams.internals.reset;

import io.weir.streams.internals.state.ProcessId;
import io.weir.streams.internals.state.StateDirectory;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * An application's local state directory, {@code <state.dir>/<application.id>}, as the reset sees it. A
 * running instance holds its {@link StateDirectory} for as long as it lives, so a directory held by someone
 * else belongs to a running instance and is never cleared; the reset takes it the same way while it
 * clears. Clearing deletes everything but the lock file and {@value ProcessId#FILE}, the instance's
 * identity: an instance restarted on the cleared directory keeps its transactional ids and static
 * membership id, so it fences the producers of its predecessor and aborts whatever transaction that one
 * left open.
 */
public final class LocalState {

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
        return new Inspection(entries(directory), StateDirectory.holderOf(directory));
    }

    /** The entries a clear deletes: all but the lock and the identity. */
    private static List<String> entries(Path directory) {
        List<String> names = new ArrayList<>();
        try (Stream<Path> children = Files.list(directory)) {
            children.map(p -> p.getFileName().toString())
                    .filter(n -> !n.equals(StateDirectory.LOCK_FILE) && !n.equals(ProcessId.FILE))
                    .sorted()
                    .forEach(names::add);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list the state directory " + directory, e);
        }
        return names;
    }

    /**
     * Takes the directory for the length of a reset, so that no instance starts on it meanwhile, or returns
     * null when the directory does not exist (nothing to clear).
     *
     * @throws IllegalStateException naming the holder when an instance holds it
     */
    static @Nullable Lock lock(Path directory) {
        if (!Files.isDirectory(directory)) {
            return null;
        }
        String holder = StateDirectory.holderOf(directory);
        if (holder != null) {
            throw new IllegalStateException(inUseMessage(directory, holder));
        }
        Path parent = directory.toAbsolutePath().getParent();
        if (parent == null) {
            throw new IllegalArgumentException("A state directory has a parent, the state.dir: " + directory);
        }
        // An instance starting between the check and this take makes it fail naming that instance.
        return new Lock(StateDirectory.take(parent, directory.getFileName().toString()));
    }

    static String inUseMessage(Path directory, String holder) {
        return "the state directory " + directory + " is in use by " + holder
                + ": an instance of the application runs on this machine. Stop it first";
    }

    /** The directory, held by the reset; {@link #clear} deletes the state under it. */
    static final class Lock implements AutoCloseable {

        private final StateDirectory held;

        private Lock(StateDirectory held) {
            this.held = held;
        }

        /** Deletes every entry but the lock and the identity; returns their names. */
        List<String> clear() {
            List<String> names = entries(held.directory());
            for (String name : names) {
                deleteTree(held.directory().resolve(name));
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
            held.close();
        }
    }
}
