package io.weir.streams.test;

/**
 * A table row as a test sees it: its value, and the event time it carries (the largest event time of
 * the changes that made it; -1 in a store that keeps no times, such as a keyed processor's).
 *
 * @param <V> the value type
 * @param value the row's value
 * @param timestamp the row's event time in epoch milliseconds, or -1
 */
public record ValueAndTimestamp<V>(V value, long timestamp) {}
