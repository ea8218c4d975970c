package io.weir.examples;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code frontier} command: the latency / accuracy dial of watermark delay and allowed lateness,
 * measured on a recorded stream ({@code --input}, see {@link FrontierCsv}) by {@link FrontierSweep}
 * and printed by {@link FrontierFormat}, and with {@code --svg} also drawn to a file by
 * {@link FrontierChart}; or, with {@code --generate}, a synthetic stream with a heavy late tail written
 * as CSV to stdout ({@link LateStreamGenerator}).
 */
final class Frontier {

    static final Set<String> OPTIONS =
            Set.of("input", "window", "delays", "lateness", "svg", "generate", "late-share", "max-late", "seed");
    static final Set<String> FLAGS = Set.of("json");

    private static final Set<String> SWEEP_ONLY = Set.of("input", "delays", "lateness", "json", "svg");
    private static final Set<String> GENERATE_ONLY = Set.of("late-share", "max-late", "seed");
    private static final Duration DEFAULT_GENERATED_WINDOW = Duration.ofSeconds(10);

    private final Options options;
    private final PrintStream out;

    Frontier(Options options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    int run() {
        return options.has("generate") ? generate() : sweep();
    }

    private int sweep() {
        refuse(GENERATE_ONLY, "only goes with --generate");
        Path input = Path.of(options.required("input"));
        Duration window = positive("window", options.duration("window"));
        List<Duration> delays = options.durations("delays");
        List<Duration> latenesses = options.durations("lateness");
        if (!Files.exists(input)) {
            throw new Options.UsageException("Option --input: no such file: " + input);
        }
        if (!Files.isRegularFile(input)) {
            throw new Options.UsageException("Option --input: not a file: " + input);
        }
        Optional<Path> chart = options.get("svg").map(Frontier::chartFile);
        List<FrontierEvent> events = FrontierCsv.read(input);
        List<FrontierRow> rows = new FrontierSweep(window).run(events, delays, latenesses);
        out.print(options.has("json") ? FrontierFormat.json(rows) : FrontierFormat.table(rows));
        if (chart.isPresent()) {
            String svg = FrontierChart.svg(rows, String.valueOf(input.getFileName()), events.size(), window);
            try {
                Files.writeString(chart.get(), svg, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write the chart to " + chart.get() + ": " + e.getMessage(), e);
            }
        }
        return 0;
    }

    /** The file {@code --svg} names: not a directory, in a directory that exists (an existing file is replaced). */
    private static Path chartFile(String name) {
        Path file;
        try {
            file = Path.of(name);
        } catch (InvalidPathException e) {
            throw new Options.UsageException("Option --svg: not a file name: " + name);
        }
        if (name.isBlank() || Files.isDirectory(file)) {
            throw new Options.UsageException("Option --svg: names a directory, not a file: '" + name + "'");
        }
        Path directory = file.toAbsolutePath().getParent();
        if (directory == null || !Files.isDirectory(directory)) {
            throw new Options.UsageException("Option --svg: no such directory: " + directory);
        }
        return file;
    }

    private int generate() {
        refuse(SWEEP_ONLY, "does not go with --generate");
        long count = options.longValue("generate");
        if (count <= 0) {
            throw new Options.UsageException("Option --generate: the number of records must be positive, was " + count);
        }
        double lateShare = options.doubleValue("late-share");
        if (!(lateShare >= 0 && lateShare <= 1)) {
            throw new Options.UsageException("Option --late-share: must be between 0 and 1, was " + lateShare);
        }
        Duration maxLate = options.duration("max-late");
        long seed = options.longValue("seed");
        Duration window = positive("window", options.duration("window", DEFAULT_GENERATED_WINDOW));
        LateStreamGenerator generator;
        try {
            generator = new LateStreamGenerator(lateShare, maxLate, window, seed);
        } catch (IllegalArgumentException e) {
            throw new Options.UsageException(String.valueOf(e.getMessage()));
        }
        FrontierCsv.write(generator.events(count), out);
        return 0;
    }

    private void refuse(Set<String> names, String why) {
        for (String name : names) {
            if (options.has(name)) {
                throw new Options.UsageException("Option --" + name + " " + why);
            }
        }
    }

    private static Duration positive(String name, Duration d) {
        if (d.isZero()) {
            throw new Options.UsageException("Option --" + name + " must be more than 0");
        }
        return d;
    }
}
