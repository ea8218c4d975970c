package io.weir.streams.internals.state;

/**
 * A store's storage engine failed (for example RocksDB reported an I/O error or a corrupt file).
 * Unchecked because the task that owns the store cannot repair it in place: it closes the store and
 * restores it from its changelog.
 */
public final class StoreException extends RuntimeException {

    StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
