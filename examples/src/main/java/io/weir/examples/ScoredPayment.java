package io.weir.examples;

/**
 * A payment with the risk score the scoring service gave it.
 *
 * @param payment the payment as it was paid
 * @param score   its risk score, 0 (none) to 99
 */
public record ScoredPayment(Payment payment, int score) {}
