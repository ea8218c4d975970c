package io.weir.streams.internals.state;

import org.rocksdb.InfoLogLevel;
import org.rocksdb.Logger;
import org.slf4j.LoggerFactory;

/**
 * RocksDB's own log, sent to the slf4j logger {@value #NAME} instead of a {@code LOG} file in each store's
 * directory. One for the process, shared by every store: a file logger per store costs each open database
 * a file handle and about 35 KiB of native memory outside any bound (measured with 600 stores), and hides
 * RocksDB's warnings and errors from the application's log.
 *
 * <p>Levels: RocksDB's WARN and ERROR go to slf4j WARN and ERROR (FATAL to ERROR); everything else
 * (flushes, compactions, and some 300 lines of options each time a store opens) to TRACE, so an
 * application logging Weir at DEBUG is not flooded. What RocksDB formats is decided once, when the class
 * loads, from what slf4j has enabled then: RocksDB skips lines below that level without calling into
 * Java, so a quiet logger costs nothing.
 *
 * <p>Thread-safe: RocksDB calls it from the stream threads and from its own background threads. Never
 * closed: it lives as long as the native library.
 */
final class RocksDbLogger extends Logger {

    /** The slf4j logger RocksDB's lines go to. */
    static final String NAME = "io.weir.streams.rocksdb";

    private static final org.slf4j.Logger log = LoggerFactory.getLogger(NAME);
    private static final RocksDbLogger INSTANCE = new RocksDbLogger();

    private RocksDbLogger() {
        super(enabledLevel());
    }

    /** The process's logger for every store's database. */
    static RocksDbLogger instance() {
        return INSTANCE;
    }

    private static InfoLogLevel enabledLevel() {
        return log.isTraceEnabled() ? InfoLogLevel.DEBUG_LEVEL : InfoLogLevel.WARN_LEVEL;
    }

    @Override
    protected void log(InfoLogLevel level, String message) {
        String line = message.strip();
        switch (level) {
            case DEBUG_LEVEL, INFO_LEVEL, HEADER_LEVEL, NUM_INFO_LOG_LEVELS -> log.trace(line);
            case WARN_LEVEL -> log.warn(line);
            case ERROR_LEVEL, FATAL_LEVEL -> log.error(line);
        }
    }
}
