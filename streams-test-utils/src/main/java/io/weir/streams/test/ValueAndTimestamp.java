package io.weir.streams.test;

/**
 * A table row as a test sees it: its value, and the event time it carries (the largest event time of
 * the changes that made it; -1 in a store that keeps no times, such as a keyed processor's).
 */
public record ValueAndTimestamp<V>(V value, long timestamp) {}
