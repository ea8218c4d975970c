package io.weir.benchmarks;

import java.util.Optional;

/**
 * The measurements of one run, sent by the forked JVM to the parent as one line of text.
 *
 * @param seconds           wall time of the measured run: piping every record and draining the output
 * @param cpuSeconds        CPU time the JVM used meanwhile, all threads (GC, RocksDB's own included): on a
 *                          machine shared with other work, the part of the cost that contention does not inflate
 * @param baselineBytes     heap in use after a full GC before the run: the input arrays and the JVM's own
 * @param peakUsedBytes     the heap's used bytes at their highest, sampled every 50 ms (garbage included)
 * @param peakAfterGcBytes  the heap in use after a collection, at its highest
 * @param liveEndBytes      the heap in use after a full GC at the end, the driver still open
 * @param results           result records the topology wrote, retractions and tombstones included
 * @param changelogRecords  records written to the stores' changelogs
 * @param changelogBytes    bytes of those records' keys and values
 * @param windowMetrics     the engine's lateness and merge metrics at the end of the run, if it reports them
 */
record RunResult(
        RunSpec spec,
        int records,
        double seconds,
        double cpuSeconds,
        long baselineBytes,
        long peakUsedBytes,
        long peakAfterGcBytes,
        long liveEndBytes,
        long results,
        long changelogRecords,
        long changelogBytes,
        Optional<WindowMetrics> windowMetrics) {

    private static final String PREFIX = "RESULT ";
    private static final String NONE = "-";

    double recordsPerSecond() {
        return records / seconds;
    }

    /** Output records per input record. */
    double outputPerInput() {
        return (double) results / records;
    }

    double changelogBytesPerRecord() {
        return (double) changelogBytes / records;
    }

    String toLine() {
        String metrics = windowMetrics
                .map(m -> m.lateRecordsAdded() + " " + m.lateRecordsDropped() + " " + m.sessionsMerged())
                .orElse(NONE + " " + NONE + " " + NONE);
        return PREFIX
                + String.join(
                        " ",
                        spec.variant().id(),
                        Integer.toString(spec.keys()),
                        Integer.toString(records),
                        Double.toString(seconds),
                        Double.toString(cpuSeconds),
                        Long.toString(baselineBytes),
                        Long.toString(peakUsedBytes),
                        Long.toString(peakAfterGcBytes),
                        Long.toString(liveEndBytes),
                        Long.toString(results),
                        Long.toString(changelogRecords),
                        Long.toString(changelogBytes),
                        metrics);
    }

    static boolean isResultLine(String line) {
        return line.startsWith(PREFIX);
    }

    static RunResult parse(String line) {
        String[] f = line.substring(PREFIX.length()).split(" ", -1);
        Optional<WindowMetrics> metrics = f[12].equals(NONE)
                ? Optional.empty()
                : Optional.of(new WindowMetrics(Long.parseLong(f[12]), Long.parseLong(f[13]), Long.parseLong(f[14])));
        return new RunResult(
                new RunSpec(Variant.byId(f[0]), Integer.parseInt(f[1])),
                Integer.parseInt(f[2]),
                Double.parseDouble(f[3]),
                Double.parseDouble(f[4]),
                Long.parseLong(f[5]),
                Long.parseLong(f[6]),
                Long.parseLong(f[7]),
                Long.parseLong(f[8]),
                Long.parseLong(f[9]),
                Long.parseLong(f[10]),
                Long.parseLong(f[11]),
                metrics);
    }
}
