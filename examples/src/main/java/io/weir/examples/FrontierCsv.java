package io.weir.examples;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The CSV form of a frontier input: a header naming the columns {@value #ARRIVAL} and
 * {@value #EVENT_TIME} (integer epoch milliseconds) and optionally {@value #KEY}, in any order, then
 * one record per line in arrival order. Plain comma separation without quoting; fields are trimmed;
 * other columns are ignored. Without a key column every record gets the key {@value #DEFAULT_KEY}.
 *
 * <p>Reading checks every line and reports all bad ones at once: a wrong number of fields, a field
 * that is not an integer, a negative time, or an arrival before the previous line's.
 */
final class FrontierCsv {

    static final String ARRIVAL = "arrival_ms";
    static final String EVENT_TIME = "event_time_ms";
    static final String KEY = "key";
    static final String DEFAULT_KEY = "all";

    /** How many bad lines an error message lists before it only counts the rest. */
    private static final int LISTED_ERRORS = 10;

    private FrontierCsv() {}

    /**
     * The records of the CSV file {@code file}.
     *
     * @throws InputDataException naming the line and column of every bad field, and how many lines were bad
     * @throws UncheckedIOException if the file cannot be read
     */
    static List<FrontierEvent> read(Path file) {
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(file.toString(), reader);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static List<FrontierEvent> read(String name, BufferedReader reader) throws IOException {
        String header = reader.readLine();
        if (header == null) {
            throw new InputDataException(name + " is empty: expected a header line " + ARRIVAL + "," + EVENT_TIME
                    + " (and optionally ," + KEY + ")");
        }
        Map<String, Integer> columns = columns(name, header);
        // columns(...) has refused a header without these two.
        int arrivalColumn = Objects.requireNonNull(columns.get(ARRIVAL));
        int eventTimeColumn = Objects.requireNonNull(columns.get(EVENT_TIME));
        Integer keyColumn = columns.get(KEY);
        int width = header.split(",", -1).length;

        List<FrontierEvent> events = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        long previousArrival = Long.MIN_VALUE;
        int lineNumber = 1;
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            lineNumber++;
            try {
                String[] fields = line.split(",", -1);
                if (fields.length != width) {
                    throw new BadLine("line " + lineNumber + ": expected " + width + " fields like the header, found "
                            + fields.length);
                }
                long arrival = time(fields, arrivalColumn, ARRIVAL, lineNumber);
                long eventTime = time(fields, eventTimeColumn, EVENT_TIME, lineNumber);
                if (arrival < previousArrival) {
                    throw new BadLine("line " + lineNumber + ", column " + ARRIVAL + ": " + arrival
                            + " is before the previous line's " + previousArrival
                            + " (lines must be in arrival order)");
                }
                previousArrival = arrival;
                events.add(new FrontierEvent(
                        arrival, eventTime, keyColumn == null ? DEFAULT_KEY : fields[keyColumn].trim()));
            } catch (BadLine e) {
                errors.add(e.getMessage());
            }
        }
        if (!errors.isEmpty()) {
            throw new InputDataException(describe(name, errors, lineNumber - 1));
        }
        return events;
    }

    private static Map<String, Integer> columns(String name, String header) {
        Map<String, Integer> columns = new HashMap<>();
        String[] names = header.split(",", -1);
        for (int i = 0; i < names.length; i++) {
            String column = names[i].trim();
            if (columns.put(column, i) != null
                    && (column.equals(ARRIVAL) || column.equals(EVENT_TIME) || column.equals(KEY))) {
                throw new InputDataException(name + " line 1: the header names column '" + column + "' twice");
            }
        }
        for (String required : List.of(ARRIVAL, EVENT_TIME)) {
            if (!columns.containsKey(required)) {
                throw new InputDataException(name + " line 1: the header has no column '" + required + "' (it has: "
                        + header.trim() + "); expected " + ARRIVAL + "," + EVENT_TIME + " and optionally " + KEY);
            }
        }
        return columns;
    }

    /** The non-negative integer in {@code column}. */
    private static long time(String[] fields, int column, String columnName, int lineNumber) throws BadLine {
        String text = fields[column].trim();
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new BadLine("line " + lineNumber + ", column " + columnName + ": '" + text
                    + "' is not an integer (milliseconds)");
        }
        if (value < 0) {
            throw new BadLine("line " + lineNumber + ", column " + columnName + ": " + value
                    + " is negative (times are epoch milliseconds, 0 or more)");
        }
        return value;
    }

    private static String describe(String name, List<String> errors, int records) {
        StringBuilder message = new StringBuilder(name)
                .append(" has ")
                .append(errors.size())
                .append(errors.size() == 1 ? " bad line" : " bad lines")
                .append(" (of ")
                .append(records)
                .append(" data lines):");
        errors.stream().limit(LISTED_ERRORS).forEach(e -> message.append("\n  ").append(e));
        if (errors.size() > LISTED_ERRORS) {
            message.append("\n  ... and ").append(errors.size() - LISTED_ERRORS).append(" more");
        }
        return message.toString();
    }

    /** Writes {@code events} as CSV with the header {@code arrival_ms,event_time_ms,key}. */
    static void write(Stream<FrontierEvent> events, PrintStream out) {
        PrintWriter writer = new PrintWriter(new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8)));
        writer.print(ARRIVAL + "," + EVENT_TIME + "," + KEY + "\n");
        events.forEach(e -> writer.print(e.arrivalMs() + "," + e.eventTimeMs() + "," + e.key() + "\n"));
        writer.flush();
    }

    /** What is wrong with one line, saying where. */
    private static final class BadLine extends Exception {
        BadLine(String message) {
            super(message, null, false, false);
        }
    }
}
