package io.weir.streams.runtime;

import io.weir.streams.test.kafka.KafkaBroker;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An instance ({@link CrashTestApp}, or another main class) in a child JVM, for tests that kill instances for real
 * (destroyForcibly(): no shutdown hook, no final commit). Its output goes to
 * {@code target/crash-test-logs/<state dir name>.log}, kept for a failing run's post-mortem.
 * Closing it kills it.
 */
final class ChildInstance implements AutoCloseable {

    private final Process process;
    private final Path stateDir;

    private ChildInstance(Process process, Path stateDir) {
        this.process = process;
        this.stateDir = stateDir;
    }

    static ChildInstance launch(KafkaBroker broker, String app, String in, String out, Path stateDir, String guarantee)
            throws IOException {
        return launch(
                CrashTestApp.class, stateDir, broker.bootstrapServers(), app, in, out, stateDir.toString(), guarantee);
    }

    /** Runs {@code main} with {@code args} in a child JVM whose log is named after {@code stateDir}. */
    static ChildInstance launch(Class<?> main, Path stateDir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-cp",
                System.getProperty("java.class.path"),
                main.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile(stateDir)))
                .start();
        return new ChildInstance(p, stateDir);
    }

    private static File logFile(Path stateDir) throws IOException {
        Path dir = Path.of("target", "crash-test-logs");
        Files.createDirectories(dir);
        return dir.resolve(stateDir.getFileName() + ".log").toFile();
    }

    /** Kills the JVM at once and waits until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /** Appends the child's thread dump to its log, for the post-mortem of a stalled run. */
    void threadDump() throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), "Thread.print")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile(stateDir)))
                .start()
                .waitFor(30, TimeUnit.SECONDS);
    }

    /** Kills the JVM; an interrupt while waiting for it to go is passed on to the caller's thread. */
    @Override
    public void close() {
        try {
            kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
