package io.weir.benchmarks;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** How a benchmark's {@code main} reads its arguments, and names the command that ran it in its report. */
public final class CommandLine {

    private CommandLine() {}

    /**
     * The options {@code parse} reads from {@code args}. An argument it refuses is a usage error: its
     * message is printed and the JVM exits with status 2.
     */
    public static <T> T parseOrExit(String[] args, Function<String[], T> parse) {
        try {
            return parse.apply(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            throw e;
        }
    }

    /**
     * {@code args} as {@code --name value} pairs.
     *
     * @throws IllegalArgumentException naming the known options, for an option not in {@code known} or one
     *     without a value
     */
    public static Map<String, String> options(String[] args, List<String> known) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!known.contains(args[i]) || i + 1 >= args.length) {
                throw new IllegalArgumentException("Unknown option or missing value: " + args[i] + "; use " + known);
            }
            options.put(args[i], args[i + 1]);
        }
        return options;
    }

    /** The command that runs {@code main} with {@code args} from the repository's root, as a report shows it. */
    public static String of(Class<?> main, String[] args) {
        return "java -cp 'benchmarks/target/benchmarks.jar:benchmarks/target/lib/*' " + main.getName()
                + (args.length == 0 ? "" : " " + String.join(" ", args));
    }
}
