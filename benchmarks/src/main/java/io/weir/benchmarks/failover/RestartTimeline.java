package io.weir.benchmarks.failover;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * An instance's log ({@link InstanceProcess#log()}) as a timeline: its {@code EVENT <instant> <what>} lines
 * ({@link FailoverInstance}: JVM up, topology built, {@code start()} called, each change of state) and its
 * log lines (each start phase Weir logs, the group client's join and sync, the producer's transactions, the
 * restores), by time. Lines without a time (stack traces) are left out.
 */
final class RestartTimeline {

    /** The longest log line shown. */
    private static final int WIDTH = 180;

    private static final DateTimeFormatter LOGGED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS", Locale.ROOT);

    /** A line of the log, at its time, without its timestamp. */
    record Line(Instant at, String text) {}

    private final List<Line> lines;

    RestartTimeline(List<Line> lines) {
        this.lines = lines.stream().sorted(Comparator.comparing(Line::at)).toList();
    }

    /** The timed lines of {@code log}. */
    static RestartTimeline read(Path log) {
        try {
            return parse(Files.readAllLines(log, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static RestartTimeline parse(List<String> log) {
        List<Line> timed = new ArrayList<>();
        for (String line : log) {
            try {
                int end = line.indexOf(' ', 6);
                if (line.startsWith("EVENT ") && end > 0) {
                    timed.add(new Line(Instant.parse(line.substring(6, end)), "EVENT " + line.substring(end + 1)));
                } else if (line.length() > 24) {
                    timed.add(new Line(
                            LocalDateTime.parse(line.substring(0, 23), LOGGED).toInstant(ZoneOffset.UTC),
                            line.substring(24)));
                }
            } catch (DateTimeParseException e) {
                // Not a timed line: a stack trace's, or a message's continuation.
            }
        }
        return new RestartTimeline(timed);
    }

    /** The wall-clock time of {@code nanos}, a {@link System#nanoTime()}. */
    static Instant wall(long nanos) {
        return Instant.now().minusNanos(System.nanoTime() - nanos);
    }

    /** When the first {@code EVENT} line starting with {@code what} came after {@code after}. */
    Optional<Instant> event(String what, Instant after) {
        return lines.stream()
                .filter(l -> l.at().isAfter(after) && l.text().startsWith("EVENT " + what))
                .map(Line::at)
                .findFirst();
    }

    /**
     * The timeline of one restart: where the seconds from the process's start went (when its JVM was up and
     * in {@code main}, when it had built its topology, when it called {@code start()} on the streams instance
     * it then constructed, when it entered RUNNING, when its partitions had committed output again), then
     * every line from the start to the later of that output and RUNNING, timed from the start, after the
     * kill.
     */
    String restart(Instant killed, Instant started, Instant output, int partition) {
        Optional<Instant> running = event("state RUNNING", started);
        Instant end = running.filter(output::isBefore).orElse(output);
        StringBuilder text = new StringBuilder(String.format(
                Locale.ROOT,
                "from the process's start, JVM up %s, topology built %s, start() %s, RUNNING %s, committed "
                        + "output on partition %d %.2f s%s%n```%n",
                since(started, event("jvm started", started)),
                since(started, event("new ", started)),
                since(started, event("start()", started)),
                since(started, running),
                partition,
                seconds(started, output),
                end.equals(output) ? "" : " (before RUNNING: another instance ran its tasks)"));
        text.append(row(seconds(started, killed), "kill -9"));
        text.append(row(0, "process started (restart())"));
        boolean shown = false;
        for (Line line : lines) {
            if (!shown && line.at().isAfter(output)) {
                text.append(outputRow(started, output, partition));
                shown = true;
            }
            if (!line.at().isBefore(started) && !line.at().isAfter(end)) {
                text.append(row(seconds(started, line.at()), line.text()));
            }
        }
        if (!shown) {
            text.append(outputRow(started, output, partition));
        }
        return text.append("```\n").toString();
    }

    private static String outputRow(Instant started, Instant output, int partition) {
        return row(seconds(started, output), "first committed output on partition " + partition + " after the kill");
    }

    private static String since(Instant started, Optional<Instant> at) {
        return at.map(a -> String.format(Locale.ROOT, "%.2f s", seconds(started, a)))
                .orElse("-");
    }

    private static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toNanos() / 1e9;
    }

    private static String row(double seconds, String text) {
        String shown = text.length() > WIDTH ? text.substring(0, WIDTH) + "..." : text;
        return String.format(Locale.ROOT, "%+8.3f s  %s%n", seconds, shown);
    }
}
