package io.weir.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The command line of {@link WindowedCountBenchmark}:
 * <pre>
 *   --records N       records per run (default 2,000,000)
 *   --keys N          distinct keys (default: 10,000 for tumbling-window variants, 100,000 for sessions)
 *   --variants LIST   comma-separated variants, each optionally {@code @KEYS}; {@code all} is every
 *                     variant at --keys (default: all)
 *   --warmup N        records of the warm-up run before the measured one (default 200,000)
 *   --in-process      run every variant in this JVM instead of one forked JVM each (for profiling)
 *   --child           print the results as lines for a parent JVM, not as a table (used when forking)
 * </pre>
 */
record BenchmarkOptions(int records, List<RunSpec> runs, int warmup, boolean inProcess, boolean child) {

    static final String USAGE =
            "options: --records N (2000000)  --keys N (10000; sessions 100000)  --variants all|ID[@KEYS],... (all)  "
                    + "--warmup N (200000)  --in-process\nvariants: "
                    + String.join(
                            ", ",
                            Arrays.stream(Variant.values()).map(Variant::id).toList());

    static BenchmarkOptions parse(String[] args) {
        int records = 2_000_000;
        Integer keys = null;
        String variants = "all";
        int warmup = 200_000;
        boolean inProcess = false;
        boolean child = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--records" -> records = OptionValues.positiveInt("--records", value(args, ++i));
                case "--keys" -> keys = OptionValues.positiveInt("--keys", value(args, ++i));
                case "--variants" -> variants = value(args, ++i);
                case "--warmup" -> warmup = OptionValues.nonNegativeInt("--warmup", value(args, ++i));
                case "--in-process" -> inProcess = true;
                case "--child" -> child = true;
                default -> throw new IllegalArgumentException("Unknown option '" + args[i] + "'\n" + USAGE);
            }
        }
        List<RunSpec> runs = new ArrayList<>();
        for (String v : variants.split(",", -1)) {
            if (v.equals("all")) {
                for (Variant variant : Variant.values()) {
                    runs.add(RunSpec.atKeys(variant, keys));
                }
            } else {
                runs.add(RunSpec.parse(v.trim(), keys));
            }
        }
        return new BenchmarkOptions(records, List.copyOf(runs), warmup, inProcess || child, child);
    }

    /** The arguments that make a forked JVM run {@code run} with these settings. */
    List<String> childArgs(RunSpec run) {
        return List.of(
                "--child",
                "--records",
                Integer.toString(records),
                "--variants",
                run.toString(),
                "--warmup",
                Integer.toString(warmup));
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value\n" + USAGE);
        }
        return args[i];
    }
}
