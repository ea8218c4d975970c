package io.weir.benchmarks.runtime;

/**
 * A run's output differs from what it must be (a result duplicated, missing or extra): the run is
 * wrong, not unlucky, so {@link RetryOnce} never runs it again and the benchmark fails.
 */
public final class WrongOutput extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public WrongOutput(String message) {
        super(message);
    }
}
