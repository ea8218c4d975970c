package io.weir.examples;

import io.weir.streams.test.kafka.FreePorts;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The runnable examples on a real (in-process) Kafka broker, started by the command itself. */
class ExampleRunnerTest {

    private static final Pattern STATUS = Pattern.compile(
            "\\[ *\\d+s] in ([\\d,]+)/s \\| watermark lag ([\\d.]+) s \\| late added ([\\d,]+) \\| dropped ([\\d,]+)"
                    + " \\| side output ([\\d,]+) \\| open windows ([\\d,]+)");

    @Test
    void theFraudDemoRunsOnABrokerOnAnotherPortWhenItsPortIsTakenCountsLatePaymentsAndDeletesItsState()
            throws IOException {
        Set<Path> before = stateDirs();
        CommandRun run;
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = taken.getLocalPort();

            run = CommandRun.of(
                    "fraud-alerts",
                    "--duration",
                    "12s",
                    "--rate",
                    "500",
                    "--seed",
                    "1",
                    "--broker-port",
                    String.valueOf(port));

            assertEquals(0, run.exitCode(), run.err());
            assertTrue(run.out().contains("(port " + port + " is in use, so the broker took another)"), run.out());
        }
        String lastStatus = null;
        for (Matcher m = STATUS.matcher(run.out()); m.find(); ) {
            lastStatus = m.group();
        }
        assertTrue(lastStatus != null, "a status line was printed:\n" + run.out());
        Matcher last = STATUS.matcher(lastStatus);
        assertTrue(last.matches());
        assertTrue(number(last.group(4)) > 0, "payments from phones offline for minutes were dropped:\n" + run.out());
        assertTrue(
                Math.abs(number(last.group(4)) - number(last.group(5))) <= 1,
                "every dropped one went to payments-late (the two counters are read while the thread may be between them)");
        assertTrue(number(last.group(3)) > 0, "payments less late than the allowed lateness were added:\n" + run.out());
        assertTrue(run.out().contains("Done after"), run.out());
        assertEquals(before, stateDirs(), "the state directory was deleted");
    }

    @ParameterizedTest
    @CsvSource({
        "orders-per-minute, 6s, orders (EARLY",
        "enrichment, 6s, '  card-'",
        "ad-clicks, 8s, ' clicked ad-'",
        "sessions, 25s, events (ON_TIME",
        "word-count, 6s, ' times'"
    })
    void eachExampleRunsOnKafkaAndPrintsItsOutput(String example, String duration, String expected) {
        CommandRun run = CommandRun.of(
                example, "--duration", duration, "--seed", "3", "--broker-port", String.valueOf(FreePorts.pick()));
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains(expected), run.out());
        assertTrue(STATUS.matcher(run.out()).find(), run.out());
    }

    @Test
    void ctrlCStopsTheDemoCleanlyAndDeletesItsStateAndTheBrokersData(@TempDir Path tmp) throws Exception {
        Path log = tmp.resolve("demo.log");
        Path javaTmp = Files.createDirectory(tmp.resolve("java-tmp"));
        Process demo = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx512m",
                        "-Djava.io.tmpdir=" + javaTmp,
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        "fraud-alerts",
                        "--duration",
                        "10m",
                        "--rate",
                        "200",
                        "--broker-port",
                        String.valueOf(FreePorts.pick()))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(90))
                    .until(() -> Files.readString(log).contains("[   5s] in "));
            try (Stream<Path> entries = Files.list(javaTmp)) {
                assertTrue(
                        entries.anyMatch(p -> p.getFileName().toString().startsWith("weir-fraud-alerts-")),
                        "the demo keeps its state under java.io.tmpdir while it runs");
            }

            new ProcessBuilder("kill", "-INT", Long.toString(demo.pid()))
                    .start()
                    .waitFor();

            assertTrue(demo.waitFor(60, TimeUnit.SECONDS), "stopped within 60 s of Ctrl-C:\n" + Files.readString(log));
            String output = Files.readString(log);
            assertTrue(output.contains("Interrupted after"), output);
            assertTrue(output.contains("weir-example-fraud-alerts: PENDING_SHUTDOWN -> NOT_RUNNING"), output);
            try (Stream<Path> left = Files.walk(javaTmp)) {
                assertEquals(
                        List.of(javaTmp),
                        left.filter(p -> !p.getFileName().toString().startsWith("hsperfdata")
                                        && !p.getParent()
                                                .getFileName()
                                                .toString()
                                                .startsWith("hsperfdata"))
                                .toList(),
                        "state and broker data deleted");
            }
        } finally {
            demo.destroyForcibly().waitFor();
        }
    }

    @Test
    void anUnreachableClusterFailsWithinThirtySecondsNamingIt() {
        String nobody = "127.0.0.1:" + FreePorts.pick();
        long start = System.nanoTime();
        CommandRun run = CommandRun.of("fraud-alerts", "--bootstrap-servers", nobody);
        assertEquals(1, run.exitCode());
        assertTrue(run.err().contains("Cannot reach a Kafka broker at " + nobody + " within 15 s"), run.err());
        assertTrue(Duration.ofNanos(System.nanoTime() - start).toSeconds() < 30);
    }

    @Test
    void badOptionsPrintUsage() {
        CommandRun unknown = CommandRun.of("fraud-alerts", "--durtion", "5s");
        assertEquals(2, unknown.exitCode());
        assertTrue(unknown.err().contains("Unknown option --durtion"), unknown.err());
        assertTrue(unknown.err().contains("Usage: java -jar weir-examples.jar"), unknown.err());

        CommandRun rate = CommandRun.of("fraud-alerts", "--rate", "0");
        assertEquals(2, rate.exitCode());
        assertTrue(rate.err().contains("Option --rate: must be between 1 and 100000, was 0"), rate.err());

        CommandRun both = CommandRun.of("sessions", "--bootstrap-servers", "localhost:9092", "--broker-port", "9093");
        assertEquals(2, both.exitCode());
        assertTrue(both.err().contains("--broker-port is for the embedded broker"), both.err());
    }

    private static long number(String digits) {
        return Long.parseLong(digits.replace(",", ""));
    }

    private static Set<Path> stateDirs() throws IOException {
        try (Stream<Path> entries = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return entries.filter(p -> p.getFileName().toString().startsWith("weir-fraud-alerts-"))
                    .collect(Collectors.toSet());
        }
    }
}
