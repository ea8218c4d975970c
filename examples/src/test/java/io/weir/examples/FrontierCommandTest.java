package io.weir.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.weir.examples.FrontierSweepTest.HAND_CHECKED_CSV;
import static io.weir.examples.FrontierSweepTest.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FrontierCommandTest {

    @TempDir
    Path dir;

    private CommandRun sweep(String csv, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of(
                "frontier",
                "--input",
                write(dir, csv).toString(),
                "--window",
                "10s",
                "--delays",
                "0s,2s",
                "--lateness",
                "0s,10s"));
        args.addAll(List.of(more));
        return CommandRun.of(args.toArray(String[]::new));
    }

    private static void assertFails(int exitCode, String message, CommandRun run) {
        assertEquals(exitCode, run.exitCode(), run.err());
        assertTrue(run.err().contains(message), "expected '" + message + "' in:\n" + run.err());
        assertEquals("", run.out());
    }

    @Test
    void printsAnAlignedTable() throws IOException {
        CommandRun run = sweep(HAND_CHECKED_CSV);
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("""
                delay_ms  lateness_ms  dropped  late_updates  in_first_pct  exact_windows  windows  mean_wait_ms  max_open_windows
                       0            0        3             0         70.00              1        4        1000.0                 2
                       0        10000        1             2         70.00              3        4        1000.0                 3
                    2000            0        1             0         90.00              3        4        4000.0                 3
                    2000        10000        0             1         90.00              4        4        4000.0                 4
                """, run.out());
    }

    @Test
    void jsonHasOneObjectPerLineWithExactlyTheFieldNames() throws IOException {
        CommandRun run = sweep(HAND_CHECKED_CSV, "--json");
        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = run.out().lines().toList();
        assertEquals(4, lines.size(), run.out());
        ObjectMapper mapper = new ObjectMapper();
        for (String line : lines) {
            List<String> names = new ArrayList<>();
            mapper.readTree(line).fieldNames().forEachRemaining(names::add);
            assertEquals(
                    List.of(
                            "delay_ms",
                            "lateness_ms",
                            "dropped",
                            "late_updates",
                            "in_first_pct",
                            "exact_windows",
                            "windows",
                            "mean_wait_ms",
                            "max_open_windows"),
                    names);
        }
        JsonNode last = mapper.readTree(lines.get(3));
        assertEquals(2000, last.get("delay_ms").asLong());
        assertEquals(90.0, last.get("in_first_pct").asDouble());
        assertEquals(4000.0, last.get("mean_wait_ms").asDouble());
    }

    @Test
    void anUndefinedWaitIsNullInJsonAndADashInTheTable() throws IOException {
        String csv = "arrival_ms,event_time_ms\n5,5\n";
        CommandRun json = sweep(csv, "--json", "--delays", "0s", "--lateness", "0s");
        assertTrue(json.out().contains("\"mean_wait_ms\":null"), json.out());
        CommandRun table = sweep(csv, "--delays", "0s", "--lateness", "0s");
        assertTrue(table.out().lines().toList().get(1).matches(".*  -  +1"), table.out());
    }

    @Test
    void aMissingFileIsAUsageError() {
        assertFails(
                2,
                "Option --input: no such file: " + dir.resolve("nope.csv"),
                CommandRun.of(
                        "frontier",
                        "--input",
                        dir.resolve("nope.csv").toString(),
                        "--window",
                        "10s",
                        "--delays",
                        "0s",
                        "--lateness",
                        "0s"));
    }

    @Test
    void aMissingHeaderColumnIsADataError() throws IOException {
        assertFails(
                1,
                "events.csv line 1: the header has no column 'event_time_ms' (it has: arrival_ms,key)",
                sweep("arrival_ms,key\n1,a\n"));
    }

    @Test
    void anEmptyFileIsADataError() throws IOException {
        assertFails(1, "events.csv is empty: expected a header line arrival_ms,event_time_ms", sweep(""));
    }

    @Test
    void aNonIntegerFieldNamesItsLineAndColumn() throws IOException {
        assertFails(
                1,
                "events.csv has 1 bad line (of 2 data lines):\n  line 3, column event_time_ms: '12.5' is not an integer",
                sweep("arrival_ms,event_time_ms\n1,1\n2,12.5\n"));
    }

    @Test
    void aNegativeEventTimeIsADataError() throws IOException {
        assertFails(1, "line 2, column event_time_ms: -5 is negative", sweep("event_time_ms,arrival_ms\n-5,1\n"));
    }

    @Test
    void everyBadLineIsCountedAndListed() throws IOException {
        CommandRun run = sweep("arrival_ms,event_time_ms,key\n1,1,a\nx,2,a\n3,3\n0,4,a\n5,-1,a\n");
        assertFails(1, """
                events.csv has 4 bad lines (of 5 data lines):
                  line 3, column arrival_ms: 'x' is not an integer (milliseconds)
                  line 4: expected 3 fields like the header, found 2
                  line 5, column arrival_ms: 0 is before the previous line's 1""", run);
        assertTrue(run.err().contains("line 6, column event_time_ms: -1 is negative"), run.err());
    }

    @Test
    void badDurationsAreUsageErrors() throws IOException {
        assertFails(
                2,
                "Option --window: '10x' is not a duration: expected a whole number and a unit, one of ms, s, m, h",
                sweep(HAND_CHECKED_CSV, "--window", "10x"));
        assertFails(2, "Option --delays: '' is not a duration", sweep(HAND_CHECKED_CSV, "--delays", "0s,,2s"));
        assertFails(2, "Option --window must be more than 0", sweep(HAND_CHECKED_CSV, "--window", "0s"));
    }

    @Test
    void unknownOrMisplacedOptionsPrintUsage() throws IOException {
        CommandRun unknown = sweep(HAND_CHECKED_CSV, "--delay", "2s");
        assertFails(2, "Unknown option --delay", unknown);
        assertTrue(unknown.err().contains("Usage: java -jar weir-examples.jar"));
        assertFails(2, "Option --json takes no value", sweep(HAND_CHECKED_CSV, "--json=yes"));
        assertFails(2, "Option --seed only goes with --generate", sweep(HAND_CHECKED_CSV, "--seed", "7"));
        assertFails(
                2,
                "Missing option --lateness",
                CommandRun.of("frontier", "--input", "x.csv", "--window", "10s", "--delays", "0s"));
    }

    @Test
    void badGenerateOptionsAreUsageErrors() {
        assertFails(
                2,
                "Option --generate: the number of records must be positive, was 0",
                CommandRun.of(
                        "frontier", "--generate", "0", "--late-share", "0.05", "--max-late", "40s", "--seed", "7"));
        assertFails(
                2,
                "Option --late-share: must be between 0 and 1, was 1.5",
                CommandRun.of(
                        "frontier", "--generate", "10", "--late-share", "1.5", "--max-late", "40s", "--seed", "7"));
        assertFails(
                2,
                "Option --seed: 'seven' is not a whole number",
                CommandRun.of(
                        "frontier",
                        "--generate",
                        "10",
                        "--late-share",
                        "0.05",
                        "--max-late",
                        "40s",
                        "--seed",
                        "seven"));
        assertFails(
                2,
                "A maximum lateness of PT2562047788015H12M55.807S and a window of PT10S do not fit in millisecond "
                        + "timestamps",
                CommandRun.of(
                        "frontier",
                        "--generate",
                        "10",
                        "--late-share",
                        "0.05",
                        "--max-late",
                        Long.MAX_VALUE + "ms",
                        "--seed",
                        "7"));
        assertFails(
                2,
                "Option --input does not go with --generate",
                CommandRun.of("frontier", "--generate", "10", "--input", "x.csv"));
    }

    @Test
    void svgWritesTheChartAndStillPrintsTheTable() throws Exception {
        Path chart = dir.resolve("chart.svg");
        CommandRun run = sweep(HAND_CHECKED_CSV, "--svg", chart.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(sweep(HAND_CHECKED_CSV).out(), run.out());
        assertTrue(run.out().startsWith("delay_ms  lateness_ms"), run.out());
        Document svg = FrontierChartTest.parse(Files.readString(chart));
        assertEquals(
                4, FrontierChartTest.ofClass(svg, FrontierChart.POINT_CLASS).size());
        assertTrue(FrontierChartTest.ofClass(svg, "caption")
                .get(0)
                .getTextContent()
                .startsWith("events.csv: 10 records, 4 windows of 10s "));
    }

    @Test
    void svgGoesWithJsonAndReplacesAnExistingFile() throws Exception {
        Path chart = Files.writeString(dir.resolve("chart.svg"), "old");
        CommandRun run = sweep(HAND_CHECKED_CSV, "--json", "--svg=" + chart);
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(4, run.out().lines().count(), run.out());
        assertEquals(
                4,
                FrontierChartTest.ofClass(FrontierChartTest.parse(Files.readString(chart)), FrontierChart.POINT_CLASS)
                        .size());
    }

    @Test
    void badSvgOptionsAreUsageErrorsAndWriteNothing() throws IOException {
        Path missing = dir.resolve("no-such-dir");
        assertFails(
                2,
                "Option --svg: no such directory: " + missing,
                sweep(HAND_CHECKED_CSV, "--svg", missing.resolve("chart.svg").toString()));
        assertFalse(Files.exists(missing));
        assertFails(
                2,
                "Option --svg: names a directory, not a file: '" + dir + "'",
                sweep(HAND_CHECKED_CSV, "--svg", dir.toString()));
        assertFails(2, "Option --svg needs a value", sweep(HAND_CHECKED_CSV, "--svg"));
        assertFails(
                2,
                "Option --svg does not go with --generate",
                CommandRun.of(
                        "frontier",
                        "--generate",
                        "10",
                        "--late-share",
                        "0.05",
                        "--max-late",
                        "40s",
                        "--seed",
                        "7",
                        "--svg",
                        dir.resolve("c.svg").toString()));
        assertFalse(Files.exists(dir.resolve("c.svg")));
    }

    @Test
    void theUsageNamesTheSvgOption() {
        assertTrue(CommandRun.of("help").out().contains("[--json] [--svg CHART]"));
    }

    @Test
    void generateWritesTheRequestedRowsAsCsv() {
        CommandRun run = CommandRun.of(
                "frontier",
                "--generate",
                "100",
                "--late-share",
                "0.05",
                "--max-late",
                "40s",
                "--seed",
                "7",
                "--window",
                "10s");
        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = run.out().lines().toList();
        assertEquals(101, lines.size());
        assertEquals("arrival_ms,event_time_ms,key", lines.get(0));
        assertTrue(lines.get(1).matches("\\d+,\\d+,sensor-[1-5]"), lines.get(1));
    }
}
