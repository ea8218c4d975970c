package io.weir.benchmarks.runtime;

/**
 * What an instance reports while it restores its stores, one changelog partition at a time: when the
 * first restoration started, when the last ended, and how many records were replayed in all. An
 * instance that has restored nothing reports nothing.
 * Thread-safe: engines call it from their own threads.
 */
final class RestoreProgress {

    private long firstStartNanos;
    private long lastEndNanos;
    private long records;

    synchronized void started() {
        if (firstStartNanos == 0) {
            firstStartNanos = System.nanoTime();
        }
    }

    synchronized void ended(long restored) {
        lastEndNanos = System.nanoTime();
        records += restored;
    }

    synchronized long records() {
        return records;
    }

    /** From the first restoration's start to the last one's end. */
    synchronized double restoreSeconds() {
        return (lastEndNanos - firstStartNanos) / 1e9;
    }

    synchronized long lastEndNanos() {
        return lastEndNanos;
    }
}
