package io.weir.benchmarks.runtime;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for a remote service in this JVM: each call answers {@code "s" + value} after a fixed delay,
 * on a timer thread of its own, however many calls are open (a server with enough capacity), and counts
 * the calls and the most open at once. {@link #callBlocking} is the same call waited for on the caller's
 * thread, as a {@code mapValues} would make it. Owns its timer thread; thread-safe.
 */
final class ScoringService implements AutoCloseable {

    private final long delayNanos;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "scoring-service");
        t.setDaemon(true);
        return t;
    });
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger mostOpen = new AtomicInteger();
    private final AtomicInteger calls = new AtomicInteger();

    ScoringService(Duration delay) {
        this.delayNanos = delay.toNanos();
    }

    /** The answer for {@code value}, completed after the delay. */
    CompletionStage<String> call(String value) {
        calls.incrementAndGet();
        mostOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
        return CompletableFuture.supplyAsync(
                () -> {
                    open.decrementAndGet();
                    return answer(value);
                },
                CompletableFuture.delayedExecutor(delayNanos, TimeUnit.NANOSECONDS, timer));
    }

    /** The same call, waited for. */
    String callBlocking(String value) {
        return call(value).toCompletableFuture().join();
    }

    /** What a call for {@code value} answers. */
    static String answer(String value) {
        return "s" + value;
    }

    /** Calls made so far (a re-issued call counts again). */
    int calls() {
        return calls.get();
    }

    /** The most calls open at once so far. */
    int mostOpen() {
        return mostOpen.get();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
