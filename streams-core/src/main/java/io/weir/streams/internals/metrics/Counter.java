package io.weir.streams.internals.metrics;

/** A monotonically increasing count, written by one thread and readable from any. */
// One writer: volatile only publishes each count to the threads reading metrics.
@SuppressWarnings("NonAtomicVolatileUpdate")
public final class Counter {
    private volatile long value;

    public void increment() {
        value++;
    }

    public void increment(long n) {
        value += n;
    }

    public long value() {
        return value;
    }
}
