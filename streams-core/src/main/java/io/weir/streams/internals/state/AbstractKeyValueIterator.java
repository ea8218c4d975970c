package io.weir.streams.internals.state;

import java.util.NoSuchElementException;

/**
 * The {@link KeyValueIterator} protocol shared by the store iterators: a cursor that is either on the
 * next entry or past the end, and a closed state in which every call but {@link #close()} throws
 * {@link IllegalStateException} — so a use after close fails in Java instead of touching freed memory.
 * Subclasses only say where their cursor is and what to release.
 *
 * <p>Not thread-safe: like its store, an iterator is used by one thread.
 */
abstract class AbstractKeyValueIterator implements KeyValueIterator {

    private boolean closed;

    /** Whether the cursor is on an entry. Called only while open. */
    protected abstract boolean onEntry();

    /** The key under the cursor. Called only while {@link #onEntry()}. */
    protected abstract byte[] currentKey();

    /** The entry under the cursor. Called only while {@link #onEntry()}. */
    protected abstract ByteEntry currentEntry();

    /** Moves the cursor to the next entry. Called only while {@link #onEntry()}. */
    protected abstract void advance();

    /** Releases what the iterator holds. Called exactly once. */
    protected abstract void release();

    @Override
    public final boolean hasNext() {
        if (closed) {
            throw new IllegalStateException("iterator is closed");
        }
        return onEntry();
    }

    @Override
    public final byte[] peekKey() {
        requireNext();
        return currentKey();
    }

    @Override
    public final ByteEntry next() {
        requireNext();
        ByteEntry entry = currentEntry();
        advance();
        return entry;
    }

    /** Idempotent. */
    @Override
    public final void close() {
        if (!closed) {
            closed = true;
            release();
        }
    }

    private void requireNext() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
    }
}
