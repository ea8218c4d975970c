package io.weir.streams.internals.table;

import org.jspecify.annotations.Nullable;

/**
 * A table's current row for one key, as its store keeps it.
 *
 * @param value     the row's value (an aggregate may be null: a reduce whose rows were all taken back
 *                  is deleted instead, so only an aggregator returning null leaves one)
 * @param timestamp the row's event time: the largest event time of the changes that made it
 * @param rows      for an aggregation of a table, how many input rows the aggregate holds (the group is
 *                  deleted when the last is taken back); -1 where nothing is ever taken back
 * @param updatedAt the processing time of the row's last change, kept for a processing-time
 *                  time-to-live; {@code Long.MIN_VALUE} where it is not kept
 */
public record TableRow<V>(@Nullable V value, long timestamp, int rows, long updatedAt) {}
