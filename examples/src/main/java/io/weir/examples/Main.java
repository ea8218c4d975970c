package io.weir.examples;

import java.io.PrintStream;
import java.util.Arrays;

/** Entry point of {@code weir-examples.jar}: {@code java -jar weir-examples.jar <command> [options]}. */
public final class Main {

    private static final String EXAMPLE_NAMES =
            String.join(" | ", Examples.all().stream().map(Example::name).toList());
    private static final String EXAMPLES = String.join(
            "\n",
            Examples.all().stream()
                    .map(e -> String.format("        %-18s %s", e.name(), e.summary()))
                    .toList());

    static final String USAGE = String.join(
            "\n",
            "Usage: java -jar weir-examples.jar <command> [options]",
            "",
            "Commands:",
            "  " + EXAMPLE_NAMES + " [--bootstrap-servers HOST:PORT] [--duration D]",
            "               [--rate N] [--partitions N] [--broker-port P] [--seed S]",
            "      Runs an example application on Kafka with generated input, printing its output as it is",
            "      committed and a status line every 5 s (input records/s, watermark lag, late records added",
            "      and dropped, side-output records, open windows), for --duration (default 60s) or until",
            "      Ctrl-C. Without --bootstrap-servers it starts an Apache Kafka broker inside this process, on",
            "      127.0.0.1:--broker-port (default 9092) or another free port if that one is in use, and",
            "      deletes its data at the end. --rate: input records per second (default 500); --partitions:",
            "      of topics it creates (default 3); --seed: makes the generated input repeatable.",
            EXAMPLES,
            "  quickstart [--bootstrap-servers HOST:PORT]",
            "      Writes payments to Kafka in one committed and one aborted transaction and reads them back",
            "      with read_committed and read_uncommitted. Without --bootstrap-servers it starts an Apache",
            "      Kafka broker inside this process and deletes its data at the end.",
            "  frontier --input FILE --window DURATION --delays D1,D2,... --lateness L1,L2,... [--json] [--svg CHART]",
            "      The latency / accuracy frontier: replays a recorded stream through Weir's windowed count once",
            "      per (watermark delay, allowed lateness) pair and prints, per pair, the records dropped, the",
            "      late updates, the share of records in each window's first result, the windows whose final",
            "      count is exact, the mean wait of on-time results after their window's end and the most open",
            "      windows. FILE is a CSV with header arrival_ms,event_time_ms and an optional key column, one",
            "      record per line in arrival order. --json prints one JSON object per pair and line. --svg also",
            "      writes an SVG chart to the file CHART: each pair's mean wait against its share of records",
            "      dropped, one line per lateness, and per delay the share not in their window's first result.",
            "  frontier --generate N --late-share SHARE --max-late DURATION --seed SEED [--window DURATION]",
            "      Writes such a CSV of N records to stdout: a stream with a heavy late tail, SHARE of its",
            "      records late by up to DURATION; the same for the same seed. --window (default 10s) scales",
            "      the on-time jitter (below a tenth of the window).",
            "      Durations are a whole number and a unit: 500ms, 10s, 2m, 1h.",
            "  help",
            "      Prints this text.");

    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs a command; returns the process exit code (0 ok, 1 failed or bad input data, 2 bad command line). */
    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.println(USAGE);
            return 2;
        }
        try {
            return switch (args[0]) {
                case "quickstart" -> new Quickstart(Options.parse(args, 1, Quickstart.OPTIONS), out).run();
                case "frontier" -> new Frontier(Options.parse(args, 1, Frontier.OPTIONS, Frontier.FLAGS), out).run();
                case "help", "--help", "-h" -> {
                    out.println(USAGE);
                    yield 0;
                }
                default -> {
                    Example example = Examples.named(args[0])
                            .orElseThrow(() -> new Options.UsageException("Unknown command '" + args[0] + "'"));
                    yield new ExampleRunner(example, Options.parse(args, 1, ExampleRunner.OPTIONS), out).run();
                }
            };
        } catch (Options.UsageException e) {
            err.println(e.getMessage());
            err.println();
            err.println(USAGE);
            return 2;
        } catch (InputDataException e) {
            err.println(e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            err.println("Failed: " + e.getMessage());
            if (Boolean.getBoolean("weir.examples.trace")) {
                e.printStackTrace(err);
            } else {
                err.println("(run with -Dweir.examples.trace=true for the stack trace; arguments were "
                        + Arrays.toString(args) + ")");
            }
            return 1;
        }
    }
}
