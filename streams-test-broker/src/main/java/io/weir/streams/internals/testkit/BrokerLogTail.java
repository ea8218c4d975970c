package io.weir.streams.internals.testkit;

import org.slf4j.LoggerFactory;

/**
 * Keeps the last lines the broker logged while it starts, so a failed start can show them. Works
 * when Logback is the slf4j backend (it reads every broker log call, whatever the configured level,
 * through a turbo filter); with another backend the failure message says where the logs went.
 */
public abstract class BrokerLogTail implements AutoCloseable {

    /** Starts capturing; {@link #close()} stops. */
    public static BrokerLogTail capture(int lines) {
        if (isLogbackBackend()) {
            return LogbackBrokerLogTail.start(lines);
        }
        return new BrokerLogTail() {
            @Override
            public String describe() {
                return "\n(The broker's log lines went to the slf4j backend "
                        + LoggerFactory.getILoggerFactory().getClass().getName()
                        + ", loggers 'kafka' and 'org.apache.kafka'.)";
            }

            @Override
            public void close() {}
        };
    }

    private static boolean isLogbackBackend() {
        try {
            Class<?> context = Class.forName("ch.qos.logback.classic.LoggerContext");
            return context.isInstance(LoggerFactory.getILoggerFactory());
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** The captured lines, formatted to append to an error message. */
    public abstract String describe();

    @Override
    public abstract void close();
}
