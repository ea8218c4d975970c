package io.weir.examples;

import org.jspecify.annotations.Nullable;

/**
 * A payment with its card's profile as the enriching task knew it when the payment arrived.
 *
 * @param profile null when no profile of the card had arrived (or it was deleted)
 */
public record EnrichedPayment(Payment payment, @Nullable CardProfile profile) {}
