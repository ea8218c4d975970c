package io.weir.examples;

import io.weir.streams.internals.testkit.FreePorts;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MainTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void quickstartOnTheInProcessBrokerShowsReadCommittedIsolation() {
        assertEquals(0, run("quickstart"), err.toString(StandardCharsets.UTF_8));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("read_committed saw 6 records; read_uncommitted saw 9"), printed);
        assertTrue(printed.endsWith("OK\n"), printed);
    }

    @Test
    void anUnreachableBootstrapFailsWithAClearMessage() {
        String nobody = "127.0.0.1:" + FreePorts.pick();
        assertEquals(1, run("quickstart", "--bootstrap-servers", nobody));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("Cannot reach a Kafka broker at " + nobody), err.toString());
    }

    @Test
    void unknownFlagsAndCommandsPrintUsage() {
        assertEquals(2, run("quickstart", "--bootstrap", "x"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("Unknown option --bootstrap"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("Usage: java -jar weir-examples.jar"));
        assertEquals(2, run("frobnicate"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("Unknown command 'frobnicate'"));
    }
}
