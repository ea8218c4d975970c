package io.weir.benchmarks.runtime;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * One stream processor under test, running the windowed count on a Kafka broker as one instance of
 * an application (one processing thread): Weir, Kafka Streams, or the hand-written ceiling loop.
 * Its consumer group is its application id. Not thread-safe: one caller starts and closes it.
 */
interface StreamingApp extends AutoCloseable {

    /** Starts processing in the background; returns at once. */
    void start();

    /** Whether it owns its partitions and processes them. */
    boolean isRunning();

    /** Throws, naming the cause, if the app failed. */
    void checkHealthy();

    /** Waits until it owns its partitions and processes them. */
    default void awaitRunning(Duration timeout) throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!isRunning()) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("The app did not get its partitions within " + timeout);
            }
            Thread.sleep(20);
        }
    }

    /** Commits what it processed and stops; releases its threads and clients (state stays on disk). */
    @Override
    void close();
}
