package io.weir.streams.internals.state;

import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.EnumSet;
import java.util.Set;

/**
 * An instance's hold on its application's state directory, {@code <state.dir>/<application.id>}, for as long
 * as it lives. Two instances on one directory would write the same RocksDB stores and share one process id
 * (so one transactional id: they would fence each other in turn, each still saying RUNNING), so the
 * directory is owned:
 * <ul>
 *   <li>by one instance: an exclusive lock on its {@value #LOCK_FILE} file, taken when the instance is made
 *       and released when it closes; a second instance, in this JVM or another process, is refused naming
 *       the directory and the process that holds it;</li>
 *   <li>by one user: a directory another user owns is refused (whoever owns it can read and change the
 *       state), and the directory is made, or narrowed to, owner-only permissions ({@code rwx------}) where
 *       the file system has POSIX permissions, so state (which holds the records' values) is not readable
 *       by other users whatever RocksDB's own files allow.</li>
 * </ul>
 * Thread-safe: made and closed once.
 */
public final class StateDirectory implements AutoCloseable {

    /** The file, in the application's state directory, whose lock the holder keeps. */
    public static final String LOCK_FILE = ".lock";

    private static final Set<PosixFilePermission> OWNER_ONLY = EnumSet.of(
            PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);

    private final Path directory;
    private final FileChannel channel;
    private final FileLock lock;

    private StateDirectory(Path directory, FileChannel channel, FileLock lock) {
        this.directory = directory;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes {@code <stateDir>/<applicationId>}, made if absent.
     *
     * @throws IllegalStateException naming the directory when another instance holds it, or another user owns it
     * @throws UncheckedIOException  when it cannot be made or locked (state.dir must be writable)
     */
    public static StateDirectory take(Path stateDir, String applicationId) {
        return take(stateDir, applicationId, null);
    }

    /** As {@link #take(Path, String)}, judging ownership against {@code self} (null: whoever creates files here). */
    static StateDirectory take(Path stateDir, String applicationId, @Nullable UserPrincipal self) {
        Path directory = stateDir.resolve(applicationId);
        try {
            createOwnerOnly(stateDir);
            createOwnerOnly(directory);
            FileChannel channel = FileChannel.open(
                    directory.resolve(LOCK_FILE),
                    StandardOpenOption.CREATE,
                    StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            try {
                UserPrincipal user = self != null ? self : Files.getOwner(directory.resolve(LOCK_FILE));
                UserPrincipal owner = Files.getOwner(directory);
                if (!owner.equals(user)) {
                    throw new IllegalStateException("State directory " + directory + " belongs to " + owner.getName()
                            + ", not to " + user.getName() + ", who runs this instance: whoever owns it can read and "
                            + "change its state. Give this instance a state.dir of its own user");
                }
                narrowToOwner(directory);
                FileLock lock = tryLock(channel, directory);
                writeHolder(channel);
                return new StateDirectory(directory, channel, lock);
            } catch (RuntimeException | IOException e) {
                channel.close();
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot make or lock the state directory " + directory
                            + " (state.dir must be a directory this user can write)",
                    e);
        }
    }

    private static FileLock tryLock(FileChannel channel, Path directory) throws IOException {
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            throw inUse(directory, "another Weir instance in this JVM");
        }
        if (lock == null) {
            throw inUse(directory, holder(channel));
        }
        return lock;
    }

    /**
     * Who holds {@code directory}'s lock now, without keeping it: "another process (pid 42)", or null when
     * nobody does (or no instance ever ran there).
     */
    public static @Nullable String holderOf(Path directory) {
        Path lockFile = directory.resolve(LOCK_FILE);
        if (!Files.exists(lockFile)) {
            return null; // an instance makes the file before it locks it
        }
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                return holder(channel);
            }
            lock.release();
            return null;
        } catch (OverlappingFileLockException e) {
            return "another Weir instance in this JVM";
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot check the lock of the state directory " + directory, e);
        }
    }

    private static IllegalStateException inUse(Path directory, String holder) {
        return new IllegalStateException("State directory " + directory + " is in use by " + holder
                + ": two instances on one directory would corrupt each other's stores and fence each other's "
                + "transactions. Give each instance on this machine its own state.dir");
    }

    /** What the lock file says of the instance that holds it. */
    private static String holder(FileChannel channel) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(256);
        channel.read(buffer, 0);
        String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8).trim();
        return text.isEmpty() ? "another process" : "another process (" + text + ")";
    }

    private static void writeHolder(FileChannel channel) throws IOException {
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(("pid " + ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8)), 0);
    }

    private static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }

    private static void createOwnerOnly(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        if (posix()) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            // The umask may have taken permissions off what was asked, never added any: set them exactly.
            Files.setPosixFilePermissions(dir, OWNER_ONLY);
        } else {
            Files.createDirectories(dir);
        }
    }

    private static void narrowToOwner(Path dir) throws IOException {
        if (posix() && !Files.getPosixFilePermissions(dir).equals(OWNER_ONLY)) {
            Files.setPosixFilePermissions(dir, OWNER_ONLY);
        }
    }

    /** {@code <state.dir>/<application.id>}. */
    public Path directory() {
        return directory;
    }

    /** Releases the directory for the next instance. */
    @Override
    public synchronized void close() {
        if (!channel.isOpen()) {
            return;
        }
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot release the lock on " + directory, e);
        }
    }
}
