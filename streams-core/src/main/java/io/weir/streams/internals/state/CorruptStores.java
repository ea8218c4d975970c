package io.weir.streams.internals.state;

import org.rocksdb.RocksDBException;
import org.rocksdb.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a task does with a RocksDB store whose files are damaged (RocksDB reports {@code Corruption} when it
 * opens them: a torn write, a bad disk, a file changed by hand). A store with a changelog holds nothing the
 * changelog does not: its directory is moved aside ({@code <store>.corrupt-<epoch ms>}, kept for a post-mortem),
 * a new empty store opened in its place, and the restore rebuilds it from the whole changelog; logged at WARN,
 * counted as {@code store-rebuilds}. A store without one (logging disabled) cannot be rebuilt: the error names
 * it and what to do, as every other failure to open does.
 */
public final class CorruptStores {

    private static final Logger log = LoggerFactory.getLogger(CorruptStores.class);

    private CorruptStores() {}

    /**
     * Opens store {@code name} in {@code dir}, rebuilding it when its files are corrupt.
     *
     * @param logged  whether the store has a changelog to be rebuilt from
     * @param rebuilt told when the store was opened anew
     * @throws StoreException when the store cannot be opened and cannot be rebuilt
     */
    public static RocksDbBytesStore open(StoreOpener opener, String name, boolean logged, Path dir, Runnable rebuilt) {
        try {
            return opener.open(name, dir);
        } catch (StoreException e) {
            if (!corrupt(e)) {
                throw e;
            }
            if (!logged) {
                throw new StoreException(
                        "Store " + name + " in " + dir + " is corrupt and has no changelog to "
                                + "rebuild it from (its logging is disabled): move or delete " + dir
                                + " to start it empty, or "
                                + "put back a copy of it",
                        e);
            }
            Path aside = dir.resolveSibling(dir.getFileName() + ".corrupt-" + System.currentTimeMillis());
            try {
                Files.move(dir, aside);
            } catch (IOException io) {
                throw new UncheckedIOException("Cannot move the corrupt store " + name + " aside from " + dir, io);
            }
            log.warn(
                    "Store {} in {} is corrupt ({}): moved it to {} and rebuilding it from its changelog",
                    name,
                    dir,
                    e.getCause() == null ? e.getMessage() : e.getCause().getMessage(),
                    aside);
            rebuilt.run();
            return opener.open(name, dir);
        }
    }

    private static boolean corrupt(StoreException e) {
        return e.getCause() instanceof RocksDBException r
                && r.getStatus() != null
                && r.getStatus().getCode() == Status.Code.Corruption;
    }
}
