package io.weir.benchmarks;

/**
 * What Weir's windowed count reports about lateness and merging over a run (see
 * {@code io.weir.streams.WeirMetrics}): the evidence of how late the input really was for it.
 *
 * @param lateRecordsAdded   records added to a window although the watermark had passed its end
 * @param lateRecordsDropped records refused because their window was past its allowed lateness
 * @param sessionsMerged     sessions merged away into another by a record that overlapped several
 */
record WindowMetrics(long lateRecordsAdded, long lateRecordsDropped, long sessionsMerged) {}
