package io.weir.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Windowed count through Weir's TestDriver and Kafka Streams' TopologyTestDriver, side by side: a
 * count per key over 1-minute tumbling windows, on the same pre-generated input, with RocksDB and
 * in-memory stores. Prints records per second and heap figures per variant (see benchmarks/README.md).
 *
 * <p>Each variant runs in a JVM of its own ({@value #CHILD_HEAP}, this JVM's classpath), so that one
 * engine's garbage and JIT state do not weigh on another's numbers.
 */
public final class WindowedCountBenchmark {

    static final String CHILD_HEAP = "-Xmx2g";

    private WindowedCountBenchmark() {}

    public static void main(String[] args) {
        BenchmarkOptions options = CommandLine.parseOrExit(args, BenchmarkOptions::parse);
        if (options.child()) {
            for (RunSpec run : options.runs()) {
                System.out.println(MeasuredRun.run(run, options.records(), options.warmup())
                        .toLine());
            }
            return;
        }
        List<RunResult> results = new ArrayList<>();
        for (RunSpec run : options.runs()) {
            System.err.println("Running " + run + " ...");
            results.add(
                    options.inProcess()
                            ? MeasuredRun.run(run, options.records(), options.warmup())
                            : fork(options, run));
        }
        System.out.print(ResultTable.format(options, results));
    }

    private static RunResult fork(BenchmarkOptions options, RunSpec run) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                CHILD_HEAP,
                "-cp",
                System.getProperty("java.class.path"),
                WindowedCountBenchmark.class.getName()));
        command.addAll(options.childArgs(run));
        try {
            Process process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            RunResult result = null;
            try (BufferedReader out =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    if (RunResult.isResultLine(line)) {
                        result = RunResult.parse(line);
                    } else {
                        System.err.println(line);
                    }
                }
            }
            int exit = process.waitFor();
            if (exit != 0 || result == null) {
                throw new IllegalStateException("The run of " + run + " failed (exit code " + exit + ")");
            }
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start a JVM for " + run, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while " + run + " ran", e);
        }
    }
}
