package io.weir.streams.internals.runtime;

import org.jspecify.annotations.Nullable;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Wakes a stream thread that waits for the answers of asynchronous calls ({@link #await}) when one comes in
 * ({@link #run}, on whatever thread completes the call). A signal given while the thread is not waiting
 * makes its next wait return at once; a wait may also return early for no reason, which costs one round of
 * the thread's loop and nothing else.
 */
final class AnswerSignal implements Runnable {

    private final AtomicBoolean signalled = new AtomicBoolean();
    private volatile @Nullable Thread waiter;

    /** An answer came in: wakes the waiting thread. Thread-safe and cheap when signalled already. */
    @Override
    public void run() {
        if (signalled.compareAndSet(false, true)) {
            Thread thread = waiter;
            if (thread != null) {
                LockSupport.unpark(thread);
            }
        }
    }

    /** Waits up to {@code maxMs} for a signal given since the last wait; called by one thread only. */
    void await(long maxMs) {
        waiter = Thread.currentThread();
        try {
            if (!signalled.get()) {
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(maxMs));
            }
        } finally {
            waiter = null;
            signalled.set(false);
        }
    }
}
