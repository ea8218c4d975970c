package io.weir.benchmarks;

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
 * @param results           result records the topology wrote
 * @param changelogRecords  records written to the store's changelog
 */
record RunResult(RunSpec spec, int records, double seconds, double cpuSeconds, long baselineBytes, long peakUsedBytes,
                 long peakAfterGcBytes, long liveEndBytes, long results, long changelogRecords) {

    private static final String PREFIX = "RESULT ";

    double recordsPerSecond() {
        return records / seconds;
    }

    String toLine() {
        return PREFIX + String.join(" ", spec.variant().id(), Integer.toString(spec.keys()), Integer.toString(records),
                Double.toString(seconds), Double.toString(cpuSeconds), Long.toString(baselineBytes), Long.toString(peakUsedBytes),
                Long.toString(peakAfterGcBytes), Long.toString(liveEndBytes), Long.toString(results),
                Long.toString(changelogRecords));
    }

    static boolean isResultLine(String line) {
        return line.startsWith(PREFIX);
    }

    static RunResult parse(String line) {
        String[] f = line.substring(PREFIX.length()).split(" ");
        return new RunResult(new RunSpec(Variant.byId(f[0]), Integer.parseInt(f[1])), Integer.parseInt(f[2]),
                Double.parseDouble(f[3]), Double.parseDouble(f[4]), Long.parseLong(f[5]), Long.parseLong(f[6]),
                Long.parseLong(f[7]), Long.parseLong(f[8]), Long.parseLong(f[9]), Long.parseLong(f[10]));
    }
}
