package io.weir.examples;

import org.jspecify.annotations.Nullable;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What an example runs beside its application for one run (a local service and its client): opened while
 * the topology is built, closed after the application, the last opened first. Not thread-safe: one run owns
 * it.
 */
final class ExampleResources implements AutoCloseable {

    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    /** Takes {@code resource} to close with the others; returns it. */
    <T extends AutoCloseable> T open(T resource) {
        opened.push(resource);
        return resource;
    }

    /**
     * Closes every resource, the last opened first.
     *
     * @throws IllegalStateException if any failed to close, with each failure suppressed in it
     */
    @Override
    public void close() {
        @Nullable IllegalStateException failure = null;
        while (!opened.isEmpty()) {
            try {
                opened.pop().close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("Closing what an example ran beside it failed");
                }
                failure.addSuppressed(e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
