package io.weir.streams.tools;

/**
 * An {@link ApplicationReset} that may not run: members of the application's group are alive, an instance
 * holds the local state directory, or the options name topics or partitions that do not fit. Nothing was
 * changed, but for the removal of members a forced reset made before they came back. The message lists
 * every reason; {@link #plan()} is the whole plan.
 */
public final class ResetRefusedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** The refused plan; not serialized. */
    private final transient ResetPlan plan;

    ResetRefusedException(String message, ResetPlan plan) {
        super(message);
        this.plan = plan;
    }

    /**
     * The refused plan, with its {@link ResetPlan#refusals()}.
     *
     * @return the plan
     */
    public ResetPlan plan() {
        return plan;
    }
}
