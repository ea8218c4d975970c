package io.weir.streams.state;

/**
 * A query of a store that this instance cannot answer now. {@link #reason()} says why and {@link
 * #retriable()} whether asking again later may succeed: while a store restores, or while no task of
 * this instance holds it (during a rebalance, or because other instances hold all of it), the same query
 * may succeed later here or elsewhere; once the application stopped or failed, it will not.
 */
public final class StoreUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why a store cannot be queried. */
    public enum Reason {
        /** A task of this instance that holds the store is restoring it from its changelog. */
        RESTORING(true),
        /** No task of this instance holds the store now: it moved, is being assigned, or lives elsewhere. */
        NOT_LOCAL(true),
        /** The application is not running: not started yet, stopped or failed. */
        NOT_RUNNING(false);

        private final boolean retriable;

        Reason(boolean retriable) {
            this.retriable = retriable;
        }
    }

    /** The store that could not be read. */
    private final String store;
    /** Why it could not be read. */
    private final Reason reason;

    /**
     * An exception for a query of {@code store} that cannot be answered for {@code reason}.
     *
     * @param store the name of the store queried
     * @param reason why the query cannot be answered
     * @param message the detail message, naming the store and what to do
     */
    public StoreUnavailableException(String store, Reason reason, String message) {
        super(message);
        this.store = store;
        this.reason = reason;
    }

    /**
     * The store that could not be read.
     *
     * @return the store's name
     */
    public String store() {
        return store;
    }

    /**
     * Why the store could not be read.
     *
     * @return the reason, which also says whether to retry
     */
    public Reason reason() {
        return reason;
    }

    /**
     * Whether the same query may succeed if asked again later.
     *
     * @return true for {@link Reason#RESTORING} and {@link Reason#NOT_LOCAL}, false for {@link
     *     Reason#NOT_RUNNING}
     */
    public boolean retriable() {
        return reason.retriable;
    }
}
