package io.weir.benchmarks.runtime;

import io.weir.benchmarks.OptionValues;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The command line of {@link TableBenchmark}:
 * <pre>
 *   --lines N              lines of the word count (default 500,000)
 *   --vocabulary N         distinct words the lines draw from (default 10,000)
 *   --updates N            updates of the regroup's user table (default 1,000,000)
 *   --users N              users (keys) of that table (default 100,000)
 *   --regions N            regions (groups) the users are summed into (default 1,000)
 *   --restore-keys N       keys of the count table the restore phase restores (default 1,000,000)
 *   --heap-keys LIST       key counts of the heap phase (default 10000,100000,1000000,10000000)
 *   --heap-records N       at least this many records per heap run, keys repeating (default 1,000,000)
 *   --engines LIST         of weir, kafka-streams (default both) for word-count, regroup and restore
 *   --heap-engines LIST    the same for the heap phase (default weir)
 *   --partitions N         partitions of every input topic (default 3)
 *   --runs N               timed runs of each throughput and restore measurement, alternating engines (default 3)
 *   --phases LIST          of word-count, regroup, restore, heap (default all)
 *   --bootstrap HOST:PORT  use this running broker instead of starting one
 *   --broker-script PATH   the script that starts the standalone broker (default bin/kafka-broker)
 * </pre>
 */
record TableOptions(
        int lines,
        int vocabulary,
        int updates,
        int users,
        int regions,
        int restoreKeys,
        List<Integer> heapKeys,
        int heapRecords,
        List<TableWorkload.Engine> engines,
        List<TableWorkload.Engine> heapEngines,
        int partitions,
        int runs,
        Set<Phase> phases,
        @Nullable String bootstrap,
        Path brokerScript) {

    /** The parts of the benchmark. */
    enum Phase {
        WORD_COUNT,
        REGROUP,
        RESTORE,
        HEAP;

        String id() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    static final String USAGE = "options: --lines N (500000)  --vocabulary N (10000)  --updates N (1000000)  "
            + "--users N (100000)  --regions N (1000)  --restore-keys N (1000000)  "
            + "--heap-keys LIST (10000,100000,1000000,10000000)  --heap-records N (1000000)  --engines weir,kafka-streams  --heap-engines weir  "
            + "--partitions N (3)  --runs N (3)  --phases word-count,regroup,restore,heap  "
            + "--bootstrap HOST:PORT  --broker-script PATH (bin/kafka-broker)";

    static TableOptions parse(String... args) {
        int lines = 500_000;
        int vocabulary = 10_000;
        int updates = 1_000_000;
        int users = 100_000;
        int regions = 1_000;
        int restoreKeys = 1_000_000;
        List<Integer> heapKeys = List.of(10_000, 100_000, 1_000_000, 10_000_000);
        int heapRecords = 1_000_000;
        List<TableWorkload.Engine> engines = List.of(TableWorkload.Engine.values());
        List<TableWorkload.Engine> heapEngines = List.of(TableWorkload.Engine.WEIR);
        int partitions = 3;
        int runs = 3;
        Set<Phase> phases = EnumSet.allOf(Phase.class);
        String bootstrap = null;
        Path brokerScript = Path.of("bin", "kafka-broker");
        for (int i = 0; i < args.length; i += 2) {
            String name = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(name + " needs a value; " + USAGE);
            }
            String value = args[i + 1];
            switch (name) {
                case "--lines" -> lines = OptionValues.positiveInt(name, value);
                case "--vocabulary" -> vocabulary = OptionValues.positiveInt(name, value);
                case "--updates" -> updates = OptionValues.positiveInt(name, value);
                case "--users" -> users = OptionValues.positiveInt(name, value);
                case "--regions" -> regions = OptionValues.positiveInt(name, value);
                case "--restore-keys" -> restoreKeys = OptionValues.positiveInt(name, value);
                case "--heap-keys" -> {
                    List<Integer> keys = new ArrayList<>();
                    for (String k : value.split(",", -1)) {
                        keys.add(OptionValues.positiveInt(name, k));
                    }
                    heapKeys = List.copyOf(keys);
                }
                case "--heap-records" -> heapRecords = OptionValues.positiveInt(name, value);
                case "--engines" -> engines = engines(value);
                case "--heap-engines" -> heapEngines = engines(value);
                case "--partitions" -> partitions = OptionValues.positiveInt(name, value);
                case "--runs" -> runs = OptionValues.positiveInt(name, value);
                case "--phases" -> {
                    Set<Phase> chosen = EnumSet.noneOf(Phase.class);
                    for (String p : value.split(",", -1)) {
                        chosen.add(Arrays.stream(Phase.values())
                                .filter(ph -> ph.id().equals(p))
                                .findFirst()
                                .orElseThrow(
                                        () -> new IllegalArgumentException("Unknown phase '" + p + "'; " + USAGE)));
                    }
                    phases = chosen;
                }
                case "--bootstrap" -> bootstrap = value;
                case "--broker-script" -> brokerScript = Path.of(value);
                default -> throw new IllegalArgumentException("Unknown option " + name + "; " + USAGE);
            }
        }
        return new TableOptions(
                lines,
                vocabulary,
                updates,
                users,
                regions,
                restoreKeys,
                heapKeys,
                heapRecords,
                engines,
                heapEngines,
                partitions,
                runs,
                phases,
                bootstrap,
                brokerScript);
    }

    private static List<TableWorkload.Engine> engines(String list) {
        return Arrays.stream(list.split(",", -1))
                .map(TableWorkload.Engine::byId)
                .toList();
    }
}
