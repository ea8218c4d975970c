package io.weir.streams.internals.state;

/**
 * A store cannot be read or written: its storage engine failed (RocksDB reported an I/O error or a
 * corrupt file), or it holds bytes in a format this version cannot read. Unchecked and not caught by
 * the task: it fails the stream thread that met it, which closes its tasks without committing, and
 * the application's uncaught-exception handler decides what happens next (see
 * {@code StreamsUncaughtExceptionHandler}). A replacement thread or a restarted instance reopens the
 * store from disk and replays the changelog past the offsets the store has applied; a store whose
 * files are damaged must be deleted (its task directory under {@code state.dir}) to be restored from
 * its changelog. Bytes in a format version this Weir does not read are an {@link UnknownFormatException}.
 */
public class StoreException extends RuntimeException {

    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
