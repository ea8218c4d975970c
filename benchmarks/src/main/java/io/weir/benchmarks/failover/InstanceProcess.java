package io.weir.benchmarks.failover;

import org.jspecify.annotations.Nullable;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@link FailoverInstance} in a child JVM: started, killed ({@code kill -9}) or stopped (SIGTERM, a
 * clean close), and read: its last status line. Its other output and its log lines go to its log file
 * ({@link #log()}), the log lines stamped with their UTC date and time to the millisecond, for {@link
 * RestartTimeline}. Owns the process and the thread reading its output.
 */
final class InstanceProcess implements AutoCloseable {

    private static final Pattern STATUS =
            Pattern.compile("STATUS running=(\\w+) active=(\\d+) standby=(\\d+) standbyLag=(-?\\d+) restored=(\\d+) "
                    + "rebalances=(\\d+)");

    /** An instance's last report; {@code rebalances}: how often its process entered REBALANCING. */
    record Status(boolean running, int active, int standby, long lag, long restored, long rebalances) {
        static final Status NONE = new Status(false, 0, 0, -1, 0, 0);
    }

    private final List<String> command;
    private final Path log;
    private final String name;
    private volatile Process process;
    /** When the live process was launched ({@link System#nanoTime()}). */
    private volatile long startedNanos;
    /** The live process's last report; null until its first. */
    private volatile @Nullable Status status;
    /** Records restored by the earlier processes of this instance: a restarted JVM counts from zero. */
    private final AtomicLong restoredEarlier = new AtomicLong();

    private InstanceProcess(String name, List<String> command, Path log) {
        this.name = name;
        this.command = command;
        this.log = log;
        this.process = launch();
    }

    /** Starts an instance of {@code engine} for {@code app}, its state in {@code stateDir}, its log in {@code logDir}. */
    static InstanceProcess start(
            String engine,
            String bootstrap,
            String app,
            Path stateDir,
            String name,
            String input,
            String output,
            Path logDir) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx1g");
        command.add("-Dlogback.configurationFile=" + logConfig(logDir));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(FailoverInstance.class.getName());
        command.addAll(List.of(engine, bootstrap, app, stateDir.toString(), name, input, output));
        try {
            Files.createDirectories(logDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new InstanceProcess(name, command, logDir.resolve(name + ".log"));
    }

    /**
     * A logging configuration for the instances: Weir's and the group coordinator client's INFO lines,
     * which tell where a restart spends its time.
     */
    private static Path logConfig(Path logDir) {
        Path file = logDir.resolve("logback-instance.xml");
        try {
            Files.createDirectories(logDir);
            Files.writeString(file, """
                    <configuration>
                      <appender name="STDERR" class="ch.qos.logback.core.ConsoleAppender">
                        <target>System.err</target>
                        <encoder>
                          <pattern>%d{yyyy-MM-dd HH:mm:ss.SSS, UTC} %-5level %logger{30} - %msg%n</pattern>
                        </encoder>
                      </appender>
                      <logger name="io.weir" level="INFO"/>
                      <logger name="org.apache.kafka.clients.consumer.internals.ConsumerCoordinator" level="INFO"/>
                      <logger name="org.apache.kafka.clients.consumer.internals.AbstractCoordinator" level="INFO"/>
                      <logger name="org.apache.kafka.streams.processor.internals.StreamThread" level="INFO"/>
                      <logger name="org.apache.kafka.clients.producer.internals.TransactionManager" level="INFO"/>
                      <logger name="org.apache.kafka.streams.processor.internals.StoreChangelogReader" level="INFO"/>
                      <root level="WARN"><appender-ref ref="STDERR"/></root>
                    </configuration>
                    """);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    private Process launch() {
        Process p;
        startedNanos = System.nanoTime();
        try {
            p = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start instance " + name, e);
        }
        status = null;
        Thread reader = new Thread(() -> read(p), "failover-" + name + "-stdout");
        reader.setDaemon(true);
        reader.start();
        return p;
    }

    private void read(Process p) {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                Matcher m = STATUS.matcher(line);
                if (!m.find()) {
                    Files.writeString(
                            log, line + System.lineSeparator(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                } else if (p == process) {
                    status = new Status(
                            Boolean.parseBoolean(m.group(1)),
                            Integer.parseInt(m.group(2)),
                            Integer.parseInt(m.group(3)),
                            Long.parseLong(m.group(4)),
                            Long.parseLong(m.group(5)),
                            Long.parseLong(m.group(6)));
                }
            }
        } catch (IOException e) {
            // The process ended: its output is closed.
        }
    }

    String name() {
        return name;
    }

    /** The last status of the live process; {@link Status#NONE} when it is not running or has not reported yet. */
    Status status() {
        Status s = status;
        return process.isAlive() && s != null ? s : Status.NONE;
    }

    /** Whether the live process has reported its status: its streams have started. */
    boolean reported() {
        return process.isAlive() && status != null;
    }

    /** Records restored by every process of this instance so far. */
    long restored() {
        Status s = status;
        return restoredEarlier.get() + (s == null ? 0 : s.restored());
    }

    /** When the live (or last) process was launched, as {@link System#nanoTime()}. */
    long startedNanos() {
        return startedNanos;
    }

    /** The live (or last) process's id: another after each restart. */
    long pid() {
        return process.pid();
    }

    /** The log of every process of this instance, one after the other. */
    Path log() {
        return log;
    }

    /** {@code kill -9}: no close, no leave, an open transaction left behind. */
    void kill() throws InterruptedException {
        end(true);
    }

    /** SIGTERM: the instance closes cleanly (commits, keeps its state and, being static, its place). */
    void stop() throws InterruptedException {
        end(false);
    }

    private void end(boolean forcibly) throws InterruptedException {
        Process p = process;
        Status last = status;
        long restored = last == null ? 0 : last.restored();
        if (forcibly) {
            p.destroyForcibly();
        } else {
            p.destroy();
        }
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            p.waitFor();
        }
        restoredEarlier.addAndGet(restored);
        status = null;
    }

    /** Starts the instance again on the same state directory. */
    void restart() {
        if (process.isAlive()) {
            throw new IllegalStateException(name + " still runs");
        }
        process = launch();
    }

    boolean alive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                end(false);
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
