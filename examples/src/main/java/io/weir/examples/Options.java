package io.weir.examples;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code --name value} command-line options and {@code --name} flags, checked against the names a
 * command accepts. The typed getters turn a value that does not parse into a {@link UsageException}
 * naming the option.
 */
final class Options {

    private final Map<String, String> values;

    private Options(Map<String, String> values) {
        this.values = values;
    }

    /**
     * Parses {@code args} (after the command name).
     *
     * @throws UsageException for an unknown option or one missing its value
     */
    static Options parse(String[] args, int from, Set<String> accepted) {
        return parse(args, from, accepted, Set.of());
    }

    /**
     * Parses {@code args} (after the command name), where the names in {@code flags} take no value.
     *
     * @throws UsageException for an unknown option, an option missing its value or a flag given one
     */
    static Options parse(String[] args, int from, Set<String> accepted, Set<String> flags) {
        Map<String, String> values = new HashMap<>();
        for (int i = from; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                throw new UsageException("Unexpected argument '" + arg + "'");
            }
            String name = arg.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            if (flags.contains(name)) {
                if (value != null) {
                    throw new UsageException("Option --" + name + " takes no value");
                }
                values.put(name, "");
                continue;
            }
            if (!accepted.contains(name)) {
                throw new UsageException("Unknown option --" + name);
            }
            if (value == null) {
                if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
                    throw new UsageException("Option --" + name + " needs a value");
                }
                value = args[++i];
            }
            values.put(name, value);
        }
        return new Options(values);
    }

    Optional<String> get(String name) {
        return Optional.ofNullable(values.get(name));
    }

    boolean has(String name) {
        return values.containsKey(name);
    }

    /** The value of {@code --name}, which must be given. */
    String required(String name) {
        return get(name).orElseThrow(() -> new UsageException("Missing option --" + name));
    }

    /** {@code --name} as a duration (see {@link Durations}), or {@code fallback} when not given. */
    Duration duration(String name, Duration fallback) {
        return get(name).map(v -> duration(name, v)).orElse(fallback);
    }

    /** {@code --name} as a duration (see {@link Durations}), which must be given. */
    Duration duration(String name) {
        return duration(name, required(name));
    }

    /** {@code --name} as a comma-separated list of one or more durations, which must be given. */
    List<Duration> durations(String name) {
        List<Duration> list = new ArrayList<>();
        for (String item : required(name).split(",", -1)) {
            list.add(duration(name, item));
        }
        return list;
    }

    /** {@code --name} as a whole number, which must be given. */
    long longValue(String name) {
        return parsed(name, Long::parseLong, "a whole number");
    }

    /** {@code --name} as a whole number in {@code [min, max]}, or {@code fallback} when not given. */
    long longValue(String name, long fallback, long min, long max) {
        if (!has(name)) {
            return fallback;
        }
        long value = longValue(name);
        if (value < min || value > max) {
            throw new UsageException(
                    "Option --" + name + ": must be between " + min + " and " + max + ", was " + value);
        }
        return value;
    }

    /** {@code --name} as a decimal number, which must be given. */
    double doubleValue(String name) {
        return parsed(name, Double::parseDouble, "a number");
    }

    private <T> T parsed(String name, Function<String, T> parser, String expected) {
        String value = required(name);
        try {
            return parser.apply(value.trim());
        } catch (NumberFormatException e) {
            throw new UsageException("Option --" + name + ": '" + value + "' is not " + expected);
        }
    }

    private static Duration duration(String name, String value) {
        try {
            return Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new UsageException("Option --" + name + ": " + e.getMessage());
        }
    }

    /** A command line that does not fit a command; {@link Main} prints it with the usage. */
    static final class UsageException extends RuntimeException {
        UsageException(String message) {
            super(message);
        }
    }
}
