package io.weir.examples;

import org.jspecify.annotations.Nullable;

/**
 * One record of the merged stream {@link PaymentEnrichment} processes: a payment, or a change of the card's
 * profile ({@code payment == null}; a null {@code profile} then deletes it).
 */
record CardUpdate(@Nullable Payment payment, @Nullable CardProfile profile) {

    static CardUpdate of(Payment payment) {
        return new CardUpdate(payment, null);
    }

    static CardUpdate profileChange(CardProfile profile) {
        return new CardUpdate(null, profile);
    }
}
