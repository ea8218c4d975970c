package io.weir.streams.internals.reset;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArgumentsTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2024-05-01T12:00:00Z"), ZoneOffset.UTC);

    private static ResetRequest request(String... args) {
        return Objects.requireNonNull(Arguments.parse(List.of(args), CLOCK).request());
    }

    private static String wrong(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> Arguments.parse(List.of(args), CLOCK))
                .getMessage();
    }

    @Test
    void theLeastIsAnApplicationAndAClusterAndItGoesToEarliest() {
        Arguments a = Arguments.parse(List.of("--application-id", "orders", "--bootstrap-servers", "k:9092"), CLOCK);
        ResetRequest r = Objects.requireNonNull(a.request());
        assertFalse(a.dryRun());
        assertEquals("orders", r.applicationId());
        assertEquals(Map.of("bootstrap.servers", "k:9092"), r.clientConfig());
        assertNull(r.inputTopics(), "input topics come from the group's offsets");
        assertEquals(new Position.Earliest(), r.position());
        assertNull(r.stateDir());
        assertFalse(r.force());
        assertEquals(Duration.ofSeconds(60), r.timeout());
    }

    @Test
    void everyOptionIsRead(@TempDir Path dir) throws IOException {
        Path config = dir.resolve("admin.properties");
        Files.writeString(config, "security.protocol=SSL\nbootstrap.servers=ignored:1\n");
        Arguments a = Arguments.parse(
                List.of(
                        "--application-id",
                        "orders",
                        "--config-file",
                        config.toString(),
                        "--bootstrap-servers",
                        "k:9092",
                        "--input-topics",
                        "a, b",
                        "--intermediate-topics",
                        "c",
                        "--to-latest",
                        "--offset",
                        "a:1=42",
                        "--state-dir",
                        dir.toString(),
                        "--force",
                        "--timeout",
                        "PT5S",
                        "--dry-run"),
                CLOCK);
        ResetRequest r = Objects.requireNonNull(a.request());
        assertTrue(a.dryRun());
        assertEquals(Map.of("bootstrap.servers", "k:9092", "security.protocol", "SSL"), r.clientConfig());
        assertEquals(List.of("a", "b"), r.inputTopics());
        assertEquals(List.of("c"), r.intermediateTopics());
        assertEquals(new Position.Latest(), r.position());
        assertEquals(Map.of(new TopicPartition("a", 1), 42L), r.partitionOffsets());
        assertEquals(dir.resolve("orders"), r.applicationStateDir());
        assertTrue(r.force());
        assertEquals(Duration.ofSeconds(5), r.timeout());
    }

    @Test
    void positionsAreATimeADurationBackOrAnOffset() {
        assertEquals(
                new Position.AtTime(Instant.parse("2024-05-01T12:00:00Z")),
                request(
                                "--application-id",
                                "a",
                                "--bootstrap-servers",
                                "k:1",
                                "--to-datetime",
                                "2024-05-01T14:00:00+02:00")
                        .position());
        assertEquals(
                new Position.AtTime(Instant.parse("2024-05-01T10:00:00Z")),
                request("--application-id", "a", "--bootstrap-servers", "k:1", "--by-duration", "PT2H")
                        .position());
        assertEquals(
                new Position.AtOffset(7),
                request("--application-id", "a", "--bootstrap-servers", "k:1", "--to-offset", "7")
                        .position());
    }

    @Test
    void partitionOffsetsComeFromFlagsAndAFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("offsets.csv");
        Files.writeString(file, "# topic,partition,offset\norders,0,10\n\norders,1,20\n");
        ResetRequest r = request(
                "--application-id",
                "a",
                "--bootstrap-servers",
                "k:1",
                "--from-file",
                file.toString(),
                "--offset",
                "ns:orders:2=30");
        assertEquals(
                Map.of(
                        new TopicPartition("orders", 0), 10L,
                        new TopicPartition("orders", 1), 20L,
                        new TopicPartition("ns:orders", 2), 30L),
                r.partitionOffsets());

        Files.writeString(file, "orders,0\n");
        assertTrue(wrong("--application-id", "a", "--bootstrap-servers", "k:1", "--from-file", file.toString())
                .contains("line 1: expected TOPIC,PARTITION,OFFSET"));
    }

    @Test
    void mistakesAreNamed() {
        assertEquals("--application-id is required", wrong("--bootstrap-servers", "k:1"));
        assertEquals("--bootstrap-servers is required", wrong("--application-id", "a"));
        assertEquals("Unknown option --to-earlist", wrong("--application-id", "a", "--to-earlist"));
        assertEquals("--application-id needs a value", wrong("--application-id", "--dry-run"));
        assertTrue(wrong("--application-id", "a", "--bootstrap-servers", "k:1", "--to-latest", "--to-offset", "3")
                .contains("both --to-latest and --to-offset were given"));
        assertTrue(wrong("--application-id", "a", "--bootstrap-servers", "k:1", "--to-datetime", "2024-05-01T12:00")
                .contains("with its offset from UTC"));
        assertTrue(wrong("--application-id", "a", "--bootstrap-servers", "k:1", "--by-duration", "2h")
                .contains("ISO-8601 duration"));
        assertTrue(wrong("--application-id", "a", "--bootstrap-servers", "k:1", "--to-offset", "-1")
                .contains("0 or more"));
        assertTrue(wrong("--application-id", "a", "--bootstrap-servers", "k:1", "--offset", "orders=3")
                .contains("TOPIC:PARTITION=OFFSET"));
        assertTrue(
                wrong("--application-id", "a", "--bootstrap-servers", "k:1", "--offset", "o:1=3", "--offset", "o:1=4")
                        .contains("given an offset twice"));
        assertTrue(wrong("--application-id", "a", "--bootstrap-servers", "k:1", "--input-topics", "a,,b")
                .contains("separated by commas"));
    }

    @Test
    void helpAsksForTheUsageOnly() {
        Arguments a = Arguments.parse(List.of("--application-id", "a", "--help"), CLOCK);
        assertNull(a.request());
    }
}
