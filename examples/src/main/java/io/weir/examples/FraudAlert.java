package io.weir.examples;

/**
 * A card used more often in one minute of event time than the threshold allows.
 *
 * @param card        the card
 * @param windowStart the minute's start, epoch ms (inclusive)
 * @param windowEnd   its end, epoch ms (exclusive)
 * @param payments    the distinct payments in that minute seen so far
 */
public record FraudAlert(String card, long windowStart, long windowEnd, long payments) {}
