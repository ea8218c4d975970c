package io.weir.examples;

/**
 * A web-shop order, as written to the {@code orders} topic (JSON, keyed by order id).
 *
 * @param orderId  unique per order
 * @param region   where it was placed, e.g. {@code EU}
 * @param amountCents the amount, in cents
 * @param placedAt when it was placed, epoch ms: the event time
 */
public record Order(String orderId, String region, long amountCents, long placedAt) {}
