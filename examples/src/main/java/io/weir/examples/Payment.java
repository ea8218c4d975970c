package io.weir.examples;

/**
 * A card payment, as the payment service writes it to the payments topic (JSON, keyed by card).
 *
 * @param paymentId   unique per payment; a phone that retries sends the same id again
 * @param card        the card paid with
 * @param amountCents the amount, in cents
 * @param paidAt      when the card was used, epoch ms: the event time
 */
public record Payment(String paymentId, String card, long amountCents, long paidAt) {}
