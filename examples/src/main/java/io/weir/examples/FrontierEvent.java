package io.weir.examples;

/**
 * One input record of a frontier sweep: it reaches the pipeline at processing time {@code arrivalMs}
 * and belongs to event time {@code eventTimeMs} (both epoch milliseconds), under grouping key
 * {@code key}.
 */
record FrontierEvent(long arrivalMs, long eventTimeMs, String key) {}
