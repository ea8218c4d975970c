package io.weir.streams.internals.runtime;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The signal that wakes a stream thread waiting for asynchronous answers. */
class AnswerSignalTest {

    private static final long HOUR_MS = Duration.ofHours(1).toMillis();

    @Test
    void aSignalGivenBeforeTheWaitEndsItAtOnceAndOnlyOnce() throws InterruptedException {
        AnswerSignal signal = new AnswerSignal();
        signal.run();
        signal.run();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> signal.await(HOUR_MS));
        AtomicBoolean returned = new AtomicBoolean();
        Thread waiter = new Thread(() -> {
            signal.await(HOUR_MS);
            returned.set(true);
        });
        waiter.start();
        waiter.join(200);
        assertFalse(returned.get(), "the signal was taken by the first wait");
        signal.run();
        waiter.join();
        assertTrue(returned.get());
    }

    @Test
    void aSignalFromAnotherThreadWakesTheWait() {
        AnswerSignal signal = new AnswerSignal();
        CountDownLatch waiting = new CountDownLatch(1);
        Thread answerer = new Thread(() -> {
            try {
                waiting.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            signal.run();
        });
        answerer.start();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            waiting.countDown();
            signal.await(HOUR_MS);
        });
    }

    @Test
    void aWaitWithoutASignalEndsAtItsLimit() {
        AnswerSignal signal = new AnswerSignal();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> signal.await(1));
    }
}
