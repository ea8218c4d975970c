package io.weir.benchmarks.runtime;

import io.weir.benchmarks.CommandLine;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.TempDirs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The memory of one instance as the tasks it holds grow (6, 60, 600 by default), without and with
 * {@code rocksdb.memory.max.bytes}, in the same run: a table aggregation (records counted per key) over an
 * input with one partition per task, {@code --keys-per-task} keys of 100-byte values each, run to the end
 * of its input by a {@link MemoryInstance} in a child JVM with a fixed, pre-touched heap. Once the
 * instance has consumed everything and committed, the benchmark reads the child's resident memory (now
 * and at its peak, {@code /proc/<pid>/status}) and the JVM's own memory (Native Memory Tracking's committed
 * total, heap included), and reports what is left outside the JVM: RocksDB and the other native libraries.
 *
 * <pre>{@code
 * java -cp "benchmarks/target/benchmarks.jar:benchmarks/target/lib/*" io.weir.benchmarks.runtime.MemoryBenchmark \
 *     --tasks 6,60,600 --bound-mib 64 --heap-mib 256
 * }</pre>
 *
 * {@code --malloc-mmap-threshold <bytes>} runs the instances with glibc's {@code MALLOC_MMAP_THRESHOLD_} set,
 * to measure what a fixed threshold saves. Linux only (it reads {@code /proc}); needs {@code jcmd} from the
 * running JDK.
 */
public final class MemoryBenchmark implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MemoryBenchmark.class);
    private static final Duration TIMEOUT = Duration.ofMinutes(10);
    private static final Pattern STATUS = Pattern.compile("STATUS consumed=(\\d+) rocksdb=(\\d+) cache=(\\d+)");
    private static final Pattern NMT_TOTAL = Pattern.compile("Total: reserved=(\\d+)KB, committed=(\\d+)KB");
    private static final long MIB = 1024 * 1024;
    private static final int LOG_TAIL_LINES = 40;

    /** One instance's memory once it has processed its input. */
    record Row(int tasks, boolean bounded, long rssBytes, long peakRssBytes, long jvmBytes, long rocksDbCacheBytes) {
        long outsideJvmBytes() {
            return rssBytes - jvmBytes;
        }
    }

    private final KafkaBroker broker;
    private final Map<String, String> options;
    private final Path stateRoot;
    private final String runId = "mem" + Long.toString(System.currentTimeMillis(), 36);
    private final RetryOnce retry = new RetryOnce();

    MemoryBenchmark(KafkaBroker broker, Map<String, String> options) {
        this.broker = broker;
        this.options = options;
        try {
            this.stateRoot = Files.createTempDirectory("weir-memory-bench-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = CommandLine.parseOrExit(args, MemoryBenchmark::parse);
        String command = CommandLine.of(MemoryBenchmark.class, args);
        try (KafkaBroker broker = StandaloneBroker.fromOptions(options);
                MemoryBenchmark bench = new MemoryBenchmark(broker, options)) {
            System.out.print(report(command, bench.run(), bench.boundMib(), bench.heapMib()) + bench.retry.report());
        }
    }

    static Map<String, String> parse(String... args) {
        List<String> known = List.of(
                "--tasks",
                "--keys-per-task",
                "--bound-mib",
                "--heap-mib",
                "--malloc-mmap-threshold",
                "--bootstrap",
                "--broker-script");
        return CommandLine.options(args, known);
    }

    /** Every task count, unbounded then bounded. */
    List<Row> run() throws Exception {
        List<Row> rows = new ArrayList<>();
        for (String t : options.getOrDefault("--tasks", "6,60,600").split(",", -1)) {
            int tasks = Integer.parseInt(t.trim());
            String input = retry.run(tasks + " tasks: pre-load", attempt -> load(tasks, attempt));
            for (boolean bounded : new boolean[] {false, true}) {
                rows.add(retry.run(
                        tasks + " tasks, " + (bounded ? "bounded" : "unbounded"),
                        attempt -> measure(tasks, bounded, input, attempt)));
            }
            RunTopics.deleteStartingWith(broker.bootstrapServers(), runId);
        }
        return rows;
    }

    private int boundMib() {
        return Integer.parseInt(options.getOrDefault("--bound-mib", "64"));
    }

    private int heapMib() {
        return Integer.parseInt(options.getOrDefault("--heap-mib", "256"));
    }

    private int keysPerTask() {
        return Integer.parseInt(options.getOrDefault("--keys-per-task", "2000"));
    }

    private String load(int tasks, int attempt) {
        String topic = runId + "-in-" + tasks + "-a" + attempt;
        broker.createTopic(topic, tasks);
        int records = tasks * keysPerTask();
        String value = "v".repeat(100);
        log.info("Pre-loading {} records into {} ({} partitions)", records, topic, tasks);
        Preloader.load(broker.bootstrapServers(), topic, records, i -> "k" + i, i -> System.currentTimeMillis(), value);
        return topic;
    }

    private Row measure(int tasks, boolean bounded, String input, int attempt) throws Exception {
        String app = runId + "-" + tasks + (bounded ? "-bounded" : "-unbounded") + "-a" + attempt;
        String output = app + "-out";
        broker.createTopic(output, tasks);
        long expected = (long) tasks * keysPerTask();
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms" + heapMib() + "m",
                "-Xmx" + heapMib() + "m",
                // Every heap page resident from the start: the heap is then a constant of the RSS.
                "-XX:+AlwaysPreTouch",
                "-XX:NativeMemoryTracking=summary",
                "-cp",
                System.getProperty("java.class.path"),
                MemoryInstance.class.getName(),
                broker.bootstrapServers(),
                app,
                stateRoot.resolve(app).toString(),
                input,
                output,
                Long.toString(bounded ? boundMib() * MIB : -1));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        String mmapThreshold = options.get("--malloc-mmap-threshold");
        if (mmapThreshold != null) {
            // glibc: a fixed threshold (the default one rises as large blocks are freed), so RocksDB's large
            // blocks (memtable arenas) are mapped apart and given back to the OS when freed.
            builder.environment().put("MALLOC_MMAP_THRESHOLD_", Long.toString(Long.parseLong(mmapThreshold)));
        }
        Process process = builder.start();
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            long consumed = 0;
            int settled = 0;
            long rocksDb = 0;
            // The instance's last log lines (not its status lines), for the error if it fails.
            Deque<String> logTail = new ArrayDeque<>();
            // Consumed everything, then a few more status lines (commits, flushes and compactions settle).
            while (settled < 6) {
                String line = out.readLine();
                if (line == null) {
                    throw new IllegalStateException(app + " exited (" + process.waitFor()
                            + ") before consuming its input (" + consumed + " of " + expected + " records); its last "
                            + "output:\n" + String.join("\n", logTail));
                }
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException(app + " consumed " + consumed + " of " + expected + " within " + TIMEOUT
                            + "; its last output:\n" + String.join("\n", logTail));
                }
                Matcher m = STATUS.matcher(line);
                if (!m.find()) {
                    logTail.addLast(line);
                    if (logTail.size() > LOG_TAIL_LINES) {
                        logTail.removeFirst();
                    }
                    continue;
                }
                consumed = Long.parseLong(m.group(1));
                rocksDb = Long.parseLong(m.group(2));
                if (consumed >= expected) {
                    settled++;
                }
            }
            long pid = process.pid();
            Row row = new Row(
                    tasks, bounded, procStatus(pid, "VmRSS"), procStatus(pid, "VmHWM"), nmtCommitted(pid), rocksDb);
            log.info(
                    "{} tasks, {}: RSS {} MiB (peak {}), JVM {} MiB, outside {} MiB",
                    tasks,
                    bounded ? "bounded" : "unbounded",
                    row.rssBytes() / MIB,
                    row.peakRssBytes() / MIB,
                    row.jvmBytes() / MIB,
                    row.outsideJvmBytes() / MIB);
            return row;
        } finally {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    /** A field of {@code /proc/<pid>/status} in bytes, e.g. {@code VmRSS} (resident now), {@code VmHWM} (peak). */
    private static long procStatus(long pid, String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.replaceAll("\\D+", "")) * 1024;
            }
        }
        throw new IllegalStateException("no " + field + " in /proc/" + pid + "/status");
    }

    /** The JVM's own committed memory, heap included, from Native Memory Tracking. */
    private static long nmtCommitted(long pid) throws IOException, InterruptedException {
        Process jcmd = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                        Long.toString(pid),
                        "VM.native_memory",
                        "summary")
                .redirectErrorStream(true)
                .start();
        String text = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        jcmd.waitFor(30, TimeUnit.SECONDS);
        Matcher m = NMT_TOTAL.matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("jcmd VM.native_memory gave no total: " + text);
        }
        return Long.parseLong(m.group(2)) * 1024;
    }

    static String report(String command, List<Row> rows, int boundMib, int heapMib) {
        StringBuilder text = new StringBuilder(String.format(
                Locale.ROOT,
                "memory of one instance by the tasks it holds (a table aggregation, one RocksDB store per task), heap "
                        + "%d MiB pre-touched, bound %d MiB%n%s%n| tasks | rocksdb.memory.max.bytes | RSS, MiB | peak RSS, "
                        + "MiB | JVM (NMT committed), MiB | outside the JVM, MiB | shared cache in use, MiB |%n"
                        + "|---|---|---|---|---|---|---|%n",
                heapMib,
                boundMib,
                command));
        for (Row r : rows) {
            text.append(String.format(
                    Locale.ROOT,
                    "| %d | %s | %,d | %,d | %,d | %,d | %s |%n",
                    r.tasks(),
                    r.bounded() ? boundMib + " MiB" : "none",
                    r.rssBytes() / MIB,
                    r.peakRssBytes() / MIB,
                    r.jvmBytes() / MIB,
                    r.outsideJvmBytes() / MIB,
                    r.bounded() ? Long.toString(r.rocksDbCacheBytes() / MIB) : "-"));
        }
        return text.toString();
    }

    @Override
    public void close() {
        TempDirs.deleteRecursively(stateRoot);
    }
}
