package io.weir.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * docker-compose.yml: its structure, read as YAML everywhere; and the file as a compose client validates it,
 * where one is installed.
 */
class ComposeFileTest {

    private static final Path COMPOSE_FILE =
            Path.of("..", "docker-compose.yml").toAbsolutePath().normalize();

    @Test
    void theBrokerIsHealthCheckedAndKeepsItsDataInAVolumeAndTheFraudExampleWaitsForItAndUsesItsInternalListener()
            throws IOException {
        JsonNode compose = new ObjectMapper(new YAMLFactory()).readTree(COMPOSE_FILE.toFile());
        JsonNode kafka = compose.path("services").path("kafka");
        assertTrue(kafka.path("image").asText().startsWith("apache/kafka:"), "the official image");
        assertEquals(
                "broker,controller",
                kafka.path("environment").path("KAFKA_PROCESS_ROLES").asText(),
                "KRaft, one node");
        assertFalse(kafka.path("healthcheck").path("test").isMissingNode(), "a health check");
        String dataVolume = kafka.path("volumes").path(0).asText();
        assertTrue(
                compose.path("volumes").has(dataVolume.substring(0, dataVolume.indexOf(':'))),
                "a named volume: " + dataVolume);
        assertTrue(
                dataVolume.endsWith(
                        ":" + kafka.path("environment").path("KAFKA_LOG_DIRS").asText()),
                "holding the log dirs");

        JsonNode app = compose.path("services").path("fraud-alerts");
        assertEquals(
                "service_healthy",
                app.path("depends_on").path("kafka").path("condition").asText());
        List<String> command = new ArrayList<>();
        app.path("command").forEach(c -> command.add(c.asText()));
        assertEquals("fraud-alerts", command.get(command.indexOf("/app/weir-examples.jar") + 1));
        String bootstrap = command.get(command.indexOf("--bootstrap-servers") + 1);
        assertTrue(
                kafka.path("environment")
                        .path("KAFKA_ADVERTISED_LISTENERS")
                        .asText()
                        .contains("//" + bootstrap),
                "the app connects to a listener the broker advertises to containers: " + bootstrap);
        Options options = Options.parse(
                command.subList(command.indexOf("fraud-alerts"), command.size()).toArray(String[]::new),
                1,
                ExampleRunner.OPTIONS);
        assertTrue(options.duration("duration").toHours() >= 1, "runs until stopped, not for the demo's minute");
    }

    @Test
    void theComposeFileIsValid() throws Exception {
        assertTrue(Files.isRegularFile(COMPOSE_FILE), "missing " + COMPOSE_FILE);
        Optional<List<String>> client = composeClient();
        assumeTrue(
                client.isPresent(),
                "No compose client ('docker compose' or 'docker-compose') is installed: "
                        + "docker-compose.yml was not validated");
        List<String> command = new ArrayList<>(client.get());
        command.addAll(List.of("-f", COMPOSE_FILE.toString(), "config", "-q"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "compose config did not finish in 60 s");
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), "compose config rejected the file:\n" + output);
    }

    private static Optional<List<String>> composeClient() {
        for (List<String> candidate : List.of(List.of("docker", "compose"), List.of("docker-compose"))) {
            List<String> probe = new ArrayList<>(candidate);
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
