package io.weir.examples;

import io.weir.streams.test.kafka.FreePorts;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MainTest {

    @Test
    void quickstartOnTheInProcessBrokerShowsReadCommittedIsolation() {
        CommandRun run = CommandRun.of("quickstart");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("read_committed saw 6 records; read_uncommitted saw 9"), run.out());
        assertTrue(run.out().endsWith("OK\n"), run.out());
    }

    @Test
    void anUnreachableBootstrapFailsWithAClearMessage() {
        String nobody = "127.0.0.1:" + FreePorts.pick();
        CommandRun run = CommandRun.of("quickstart", "--bootstrap-servers", nobody);
        assertEquals(1, run.exitCode());
        assertTrue(run.err().contains("Cannot reach a Kafka broker at " + nobody), run.err());
    }

    @Test
    void unknownFlagsAndCommandsPrintUsage() {
        CommandRun badFlag = CommandRun.of("quickstart", "--bootstrap", "x");
        assertEquals(2, badFlag.exitCode());
        assertTrue(badFlag.err().contains("Unknown option --bootstrap"));
        assertTrue(badFlag.err().contains("Usage: java -jar weir-examples.jar"));
        CommandRun badCommand = CommandRun.of("frobnicate");
        assertEquals(2, badCommand.exitCode());
        assertTrue(badCommand.err().contains("Unknown command 'frobnicate'"));
    }
}
