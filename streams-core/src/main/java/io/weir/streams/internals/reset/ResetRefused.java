package io.weir.streams.internals.reset;

/** A reset that may not run, with the plan that says why ({@link Plan#refusals}). */
public final class ResetRefused extends ResetFailedException {

    private static final long serialVersionUID = 1L;

    @SuppressWarnings("serial") // a plan is not sent anywhere
    private final Plan plan;

    public ResetRefused(Plan plan) {
        super(plan.refusalMessage(), null);
        this.plan = plan;
    }

    public Plan plan() {
        return plan;
    }
}
