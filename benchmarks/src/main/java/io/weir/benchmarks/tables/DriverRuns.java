package io.weir.benchmarks.tables;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/** What the test-driver benchmarks share: medians, run lists, and the state directories they make and measure. */
public final class DriverRuns {

    private DriverRuns() {}

    public static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** The runs' seconds, as "1.23, 1.31, ...". */
    public static String format(List<Double> seconds) {
        StringBuilder s = new StringBuilder();
        for (double d : seconds) {
            s.append(s.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f", d));
        }
        return s.toString();
    }

    public static Path tempDir(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bytes of every file under {@code dir}. */
    public static long size(Path dir) {
        return size(dir, "");
    }

    /**
     * The bytes of RocksDB's table files ({@code *.sst}) under {@code dir}: the state itself, without the
     * write-ahead log (which Weir keeps and Kafka Streams turns off), memtables not yet flushed, or
     * metadata.
     */
    public static long tableFileSize(Path dir) {
        return size(dir, ".sst");
    }

    private static long size(Path dir, String suffix) {
        try (Stream<Path> paths = Files.walk(dir)) {
            return paths.filter(p ->
                            Files.isRegularFile(p) && p.getFileName().toString().endsWith(suffix))
                    .mapToLong(p -> p.toFile().length())
                    .sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void delete(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
