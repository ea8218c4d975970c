package io.weir.examples;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** docker-compose.yml parses, checked by a compose client where one is installed. */
class ComposeFileTest {

    private static final Path COMPOSE_FILE = Path.of("..", "docker-compose.yml").toAbsolutePath().normalize();

    @Test
    void theComposeFileIsValid() throws Exception {
        assertTrue(Files.isRegularFile(COMPOSE_FILE), "missing " + COMPOSE_FILE);
        Optional<List<String>> client = composeClient();
        assumeTrue(client.isPresent(), "No compose client ('docker compose' or 'docker-compose') is installed: "
                + "docker-compose.yml was not validated");
        List<String> command = new java.util.ArrayList<>(client.get());
        command.addAll(List.of("-f", COMPOSE_FILE.toString(), "config", "-q"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "compose config did not finish in 60 s");
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), "compose config rejected the file:\n" + output);
    }

    private static Optional<List<String>> composeClient() {
        for (List<String> candidate : List.of(List.of("docker", "compose"), List.of("docker-compose"))) {
            List<String> probe = new java.util.ArrayList<>(candidate);
            probe.add("version");
            try {
                Process p = new ProcessBuilder(probe).redirectErrorStream(true).start();
                p.getInputStream().readAllBytes();
                if (p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    return Optional.of(candidate);
                }
            } catch (IOException e) {
                // not installed: try the next client
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
        return Optional.empty();
    }
}
