package io.weir.benchmarks.runtime;

import io.weir.streams.test.kafka.ExternalKafkaBroker;
import io.weir.streams.test.kafka.FreePorts;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.TempDirs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The repository's standalone broker ({@code bin/kafka-broker}) in a process of its own, on free
 * loopback ports, with its data in a temp directory; {@link #close()} stops it and deletes the
 * directory. The broker's CPU time is then not the benchmark JVM's.
 */
public final class StandaloneBroker implements KafkaBroker {

    private static final Logger log = LoggerFactory.getLogger(StandaloneBroker.class);
    private static final Pattern READY = Pattern.compile("READY bootstrap=(\\S+) pid=(\\d+)");

    private final Path script;
    private final Path home;
    private final ExternalKafkaBroker client;

    private StandaloneBroker(Path script, Path home, String bootstrap) {
        this.script = script;
        this.home = home;
        this.client = ExternalKafkaBroker.at(bootstrap);
    }

    /**
     * The broker a benchmark's options name: {@code --bootstrap host:port} for a running one, else one
     * started with {@code --broker-script} (default {@code bin/kafka-broker}).
     */
    public static KafkaBroker fromOptions(Map<String, String> options) {
        String bootstrap = options.get("--bootstrap");
        return bootstrap != null
                ? ExternalKafkaBroker.at(bootstrap).start()
                : start(Path.of(options.getOrDefault("--broker-script", "bin/kafka-broker")));
    }

    public static StandaloneBroker start(Path script) {
        if (!Files.isExecutable(script)) {
            throw new IllegalArgumentException(
                    script.toAbsolutePath() + " is not the broker script: run from the repository's "
                            + "root, or give --broker-script or --bootstrap");
        }
        Path home;
        try {
            home = Files.createTempDirectory("weir-bench-broker-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            String out = runScript(
                    script,
                    "start",
                    "--port",
                    Integer.toString(FreePorts.pick()),
                    "--controller-port",
                    Integer.toString(FreePorts.pick()),
                    "--home",
                    home.toString());
            Matcher ready = READY.matcher(out);
            if (!ready.find()) {
                throw new IllegalStateException("The broker did not start: " + out);
            }
            log.info("Standalone broker up at {} (pid {}, data in {})", ready.group(1), ready.group(2), home);
            return new StandaloneBroker(script, home, ready.group(1));
        } catch (RuntimeException e) {
            runScript(script, "stop", "--home", home.toString());
            TempDirs.deleteRecursively(home);
            throw e;
        }
    }

    private static String runScript(Path script, String... args) {
        String[] command = new String[args.length + 1];
        command[0] = script.toAbsolutePath().toString();
        System.arraycopy(args, 0, command, 1, args.length);
        try {
            Process process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            StringBuilder out = new StringBuilder();
            try (BufferedReader reader =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                reader.lines().forEach(line -> out.append(line).append('\n'));
            }
            if (!process.waitFor(3, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException(script + " " + args[0] + " did not finish within 3 minutes");
            }
            return out.toString();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + script, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running " + script, e);
        }
    }

    @Override
    public KafkaBroker start() {
        return this;
    }

    @Override
    public String bootstrapServers() {
        return client.bootstrapServers();
    }

    @Override
    public void createTopic(String name, int partitions, Map<String, String> configs) {
        client.createTopic(name, partitions, configs);
    }

    @Override
    public boolean supportsRestart() {
        return false;
    }

    @Override
    public void stop() {
        throw new UnsupportedOperationException("The benchmark's broker runs until close()");
    }

    @Override
    public void close() {
        client.close();
        log.info(
                "Stopping the standalone broker: {}",
                runScript(script, "stop", "--home", home.toString()).trim());
        TempDirs.deleteRecursively(home);
    }
}
