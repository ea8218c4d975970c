package io.weir.streams.internals.testkit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;
import org.slf4j.helpers.MessageFormatter;

import java.util.ArrayDeque;
import java.util.Deque;

/** {@link BrokerLogTail} for Logback: a turbo filter that copies broker log calls into a ring. */
final class LogbackBrokerLogTail extends BrokerLogTail {

    private final Ring ring;

    private LogbackBrokerLogTail(Ring ring) {
        this.ring = ring;
    }

    static LogbackBrokerLogTail start(int lines) {
        Ring ring = new Ring(lines);
        ring.start();
        ((LoggerContext) LoggerFactory.getILoggerFactory()).addTurboFilter(ring);
        return new LogbackBrokerLogTail(ring);
    }

    @Override
    public String describe() {
        String problems = ring.problems.lines();
        String recent = ring.recent.lines();
        if (recent.isEmpty()) {
            return "\n(The broker logged nothing.)";
        }
        return (problems.isEmpty() ? "" : "\nBroker warnings and errors:\n" + problems) + "\nLast broker log lines:\n"
                + recent;
    }

    @Override
    public void close() {
        ring.stop();
        ((LoggerContext) LoggerFactory.getILoggerFactory()).getTurboFilterList().remove(ring);
    }

    /**
     * Never changes a logging decision (always NEUTRAL); only records. Warnings and errors are kept
     * apart so a burst of shutdown INFO lines cannot push the reason out.
     */
    private static final class Ring extends TurboFilter {
        final Lines recent;
        final Lines problems;

        Ring(int capacity) {
            this.recent = new Lines(capacity);
            this.problems = new Lines(capacity);
        }

        @Override
        public FilterReply decide(
                Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
            if (format != null && level.isGreaterOrEqual(Level.INFO) && isBrokerLogger(logger.getName())) {
                String message = MessageFormatter.arrayFormat(format, params, t).getMessage();
                String line = level + " " + logger.getName() + " - " + message + (t != null ? " (" + t + ")" : "");
                recent.add(line);
                if (level.isGreaterOrEqual(Level.WARN)) {
                    problems.add(line);
                }
            }
            return FilterReply.NEUTRAL;
        }

        private static boolean isBrokerLogger(String name) {
            return name.startsWith("kafka.")
                    || (name.startsWith("org.apache.kafka.") && !name.startsWith("org.apache.kafka.clients."));
        }
    }

    /** The last {@code capacity} lines added. Thread-safe. */
    private static final class Lines {
        private final int capacity;
        private final Deque<String> lines = new ArrayDeque<>();

        Lines(int capacity) {
            this.capacity = capacity;
        }

        synchronized void add(String line) {
            if (lines.size() == capacity) {
                lines.removeFirst();
            }
            lines.addLast(line);
        }

        synchronized String lines() {
            return String.join("\n", lines);
        }
    }
}
