package io.weir.examples;

import java.io.PrintStream;
import java.util.Arrays;

/** Entry point of {@code weir-examples.jar}: {@code java -jar weir-examples.jar <command> [options]}. */
public final class Main {

    static final String USAGE = String.join("\n",
            "Usage: java -jar weir-examples.jar <command> [options]",
            "",
            "Commands:",
            "  quickstart [--bootstrap-servers HOST:PORT]",
            "      Writes payments to Kafka in one committed and one aborted transaction and reads them back",
            "      with read_committed and read_uncommitted. Without --bootstrap-servers it starts an Apache",
            "      Kafka broker inside this process and deletes its data at the end.",
            "  help",
            "      Prints this text.");

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs a command; returns the process exit code (0 ok, 1 failed, 2 bad command line). */
    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.println(USAGE);
            return 2;
        }
        try {
            switch (args[0]) {
                case "quickstart":
                    return new Quickstart(Options.parse(args, 1, Quickstart.OPTIONS), out).run();
                case "help":
                case "--help":
                case "-h":
                    out.println(USAGE);
                    return 0;
                default:
                    throw new Options.UsageException("Unknown command '" + args[0] + "'");
            }
        } catch (Options.UsageException e) {
            err.println(e.getMessage());
            err.println();
            err.println(USAGE);
            return 2;
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
