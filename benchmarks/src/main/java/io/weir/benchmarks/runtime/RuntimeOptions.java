package io.weir.benchmarks.runtime;

import io.weir.benchmarks.OptionValues;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The command line of {@link RuntimeBenchmark}:
 * <pre>
 *   --records N            pre-loaded records of the throughput phase (default 1,000,000)
 *   --keys N               distinct keys of the throughput and latency inputs (default 10,000)
 *   --per-minute N         records per minute of event time in the pre-loaded input (default 20,000)
 *   --partitions N         partitions of every input topic (default 3)
 *   --warmup N             records each app processes, untimed, before the timed runs (default 50,000)
 *   --rate N               records/s of the latency phase (default 5,000)
 *   --duration S           seconds the latency phase produces for (default 60)
 *   --restore-keys N       keys of the key store the restore phase restores (default 1,000,000)
 *   --repeats N            timed runs of each throughput and restore measurement, interleaved across the
 *                          engines; the tables show each engine's median run (default 3)
 *   --phases LIST          of throughput, latency, restore (default all three)
 *   --engines LIST         of weir, ks-close, ks-update, ks-suppress, ceiling (default all) for throughput and latency
 *   --restore-engines LIST the same for the restore phase (default weir,ks-update,ks-suppress)
 *   --bootstrap HOST:PORT  use this running broker instead of starting one
 *   --broker-script PATH   the script that starts the standalone broker (default bin/kafka-broker)
 * </pre>
 */
record RuntimeOptions(
        int records,
        int keys,
        int perMinute,
        int partitions,
        int warmup,
        int rate,
        int durationSeconds,
        int restoreKeys,
        int repeats,
        Set<Phase> phases,
        List<AppKind> engines,
        List<AppKind> restoreEngines,
        @Nullable String bootstrap,
        Path brokerScript) {

    /** The parts of the benchmark. */
    enum Phase {
        THROUGHPUT,
        LATENCY,
        RESTORE
    }

    static final String USAGE =
            "options: --records N (1000000)  --keys N (10000)  --per-minute N (20000)  --partitions N (3)  "
                    + "--warmup N (50000)  --rate N (5000)  --duration S (60)  --restore-keys N (1000000)  --repeats N (3)  "
                    + "--phases throughput,latency,restore  --engines weir,ks-close,ks-update,ks-suppress,ceiling  "
                    + "--restore-engines weir,ks-update,ks-suppress  --bootstrap HOST:PORT  --broker-script PATH (bin/kafka-broker)";

    static RuntimeOptions parse(String[] args) {
        int records = 1_000_000;
        int keys = 10_000;
        int perMinute = 20_000;
        int partitions = 3;
        int warmup = 50_000;
        int rate = 5_000;
        int duration = 60;
        int restoreKeys = 1_000_000;
        int repeats = 3;
        Set<Phase> phases = EnumSet.allOf(Phase.class);
        List<AppKind> engines = List.of(AppKind.values());
        List<AppKind> restoreEngines = List.of(AppKind.WEIR, AppKind.KS_UPDATE, AppKind.KS_SUPPRESS);
        String bootstrap = null;
        Path script = Path.of("bin", "kafka-broker");
        for (int i = 0; i < args.length; i += 2) {
            String name = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(name + " needs a value\n" + USAGE);
            }
            String value = args[i + 1];
            switch (name) {
                case "--records" -> records = OptionValues.positiveInt(name, value);
                case "--keys" -> keys = OptionValues.positiveInt(name, value);
                case "--per-minute" -> perMinute = OptionValues.positiveInt(name, value);
                case "--partitions" -> partitions = OptionValues.positiveInt(name, value);
                case "--warmup" -> warmup = OptionValues.nonNegativeInt(name, value);
                case "--rate" -> rate = OptionValues.positiveInt(name, value);
                case "--duration" -> duration = OptionValues.positiveInt(name, value);
                case "--restore-keys" -> restoreKeys = OptionValues.positiveInt(name, value);
                case "--repeats" -> repeats = OptionValues.positiveInt(name, value);
                case "--phases" -> phases = phases(value);
                case "--engines" -> engines = engines(value);
                case "--restore-engines" -> restoreEngines = engines(value);
                case "--bootstrap" -> bootstrap = value;
                case "--broker-script" -> script = Path.of(value);
                default -> throw new IllegalArgumentException("Unknown option '" + name + "'\n" + USAGE);
            }
        }
        return new RuntimeOptions(
                records,
                keys,
                perMinute,
                partitions,
                warmup,
                rate,
                duration,
                restoreKeys,
                repeats,
                phases,
                engines,
                restoreEngines,
                bootstrap,
                script);
    }

    boolean runs(Phase phase) {
        return phases.contains(phase);
    }

    private static Set<Phase> phases(String list) {
        Set<Phase> phases = EnumSet.noneOf(Phase.class);
        for (String p : list.split(",", -1)) {
            phases.add(Arrays.stream(Phase.values())
                    .filter(v -> v.name().equalsIgnoreCase(p.trim()))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("Unknown phase '" + p + "'\n" + USAGE)));
        }
        return phases;
    }

    private static List<AppKind> engines(String list) {
        List<AppKind> engines = new ArrayList<>();
        for (String e : list.split(",", -1)) {
            engines.add(AppKind.byId(e.trim()));
        }
        return List.copyOf(engines);
    }
}
