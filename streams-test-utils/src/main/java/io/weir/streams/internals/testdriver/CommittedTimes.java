package io.weir.streams.internals.testdriver;

import org.apache.kafka.common.TopicPartition;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The TestDriver's stand-in for the event time the runtime commits with each input partition's offset
 * (docs/architecture.md, "Offset metadata"): noted at each commit, kept in a file in the task's state
 * directory when the task closes, read when a driver opens the same state directory, so a reopened
 * driver judges lateness from the restored watermark as a restarted instance does. Written at close
 * only, since a commit comes every 100 ms of virtual time and a file per commit would cost more than
 * the commit. One instance per task; single-threaded.
 */
public final class CommittedTimes {

    private static final String FILE = "committed-time.properties";

    private final Path file;
    private Map<TopicPartition, String> written = Map.of();
    private Map<TopicPartition, String> committed = Map.of();

    public CommittedTimes(Path taskDir) {
        this.file = taskDir.resolve(FILE);
    }

    /** What the last commit in this directory wrote; empty for a new task. */
    public Map<TopicPartition, String> read() {
        Map<TopicPartition, String> out = new HashMap<>();
        if (!Files.exists(file)) {
            return out;
        }
        Properties props = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            props.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
        for (String key : props.stringPropertyNames()) {
            int dash = key.lastIndexOf('-');
            out.put(
                    new TopicPartition(key.substring(0, dash), Integer.parseInt(key.substring(dash + 1))),
                    props.getProperty(key));
        }
        written = Map.copyOf(out);
        committed = written;
        return out;
    }

    /** Notes a commit's event times. */
    public void committed(Map<TopicPartition, String> times) {
        committed = times;
    }

    /** Writes the last commit's event times, replacing the file atomically, when they changed. */
    public void write() {
        if (committed.equals(written)) {
            return;
        }
        Properties props = new Properties();
        committed.forEach((tp, value) -> props.setProperty(tp.toString(), value));
        Path tmp = file.resolveSibling(FILE + ".tmp");
        try {
            Files.createDirectories(file.getParent());
            try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                props.store(out, null);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
        written = committed;
    }
}
