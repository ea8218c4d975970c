package io.weir.examples;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** {@code --name value} command-line options, checked against the names a command accepts. */
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

    /** A command line that does not fit a command; {@link Main} prints it with the usage. */
    static final class UsageException extends RuntimeException {
        UsageException(String message) {
            super(message);
        }
    }
}
