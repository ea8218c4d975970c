package io.weir.benchmarks.runtime;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * Restore rate, for each app of {@code --restore-engines} that keeps a changelogged store,
 * of two stores: the window store of the throughput input (the changelog the throughput phase wrote,
 * or written now by running the app over that input) and a store of {@code --restore-keys} keys (the
 * app run over {@link BenchContext#keysInput()}: Weir has window stores only, so this too is a window
 * store, holding one window with one entry per key). Each population run is stopped cleanly; then a
 * fresh instance of the same application, on an empty state directory, starts. Its restore listener
 * tells when the first changelog partition's restoration started and the last one's ended, and how
 * many records were replayed; the instance is done when it is running (both libraries restore every
 * store of a task before they report running). With {@code --repeats} every store is restored that
 * many times, each time into a fresh instance, and each median run is reported.
 *
 * <p>A population run that fails is run once more as an application of its own ({@link RetryOnce});
 * a restore that fails is run once more into another fresh instance of the same application (its
 * changelog is what is restored), and both are listed under the report.
 */
final class RestorePhase {

    /**
     * @param records          changelog records replayed, as the restore listeners report them
     * @param restoreSeconds   from the first partition's restore start to the last one's end
     * @param startSeconds     from {@code start()} of the fresh instance until it runs
     * @param cpuSeconds       CPU time this JVM used meanwhile
     */
    record Row(
            AppKind kind, String store, long records, double restoreSeconds, double startSeconds, double cpuSeconds) {

        double recordsPerSecond() {
            return records / restoreSeconds;
        }
    }

    static final String WINDOW_STORE = "window store";
    static final String KEY_STORE = "keys store";

    private static final Logger log = LoggerFactory.getLogger(RestorePhase.class);
    private static final Duration TIMEOUT = Duration.ofMinutes(30);

    private RestorePhase() {}

    static List<Runs<Row>> run(BenchContext context) throws Exception {
        Map<String, String> populated = new LinkedHashMap<>();
        for (AppKind kind : context.options().restoreEngines()) {
            if (kind.restoredStores() == 0) {
                continue;
            }
            String windowApp = context.windowStoreApp(kind);
            if (windowApp == null) {
                windowApp = populate(context, kind, "rs-win-", context.throughputInput());
            }
            populated.put(kind.id() + "/" + WINDOW_STORE, windowApp);
            populated.put(kind.id() + "/" + KEY_STORE, populate(context, kind, "rs-keys-", context.keysInput()));
        }
        Map<String, List<Row>> runs = new LinkedHashMap<>();
        for (int round = 1; round <= context.options().repeats(); round++) {
            for (Map.Entry<String, String> p : populated.entrySet()) {
                AppKind kind = AppKind.byId(p.getKey().substring(0, p.getKey().indexOf('/')));
                String store = p.getKey().substring(p.getKey().indexOf('/') + 1);
                BenchContext.LoadedInput input =
                        store.equals(WINDOW_STORE) ? context.throughputInput() : context.keysInput();
                int r = round;
                Row row = context.retry()
                        .run(
                                "restore " + r + " of " + p.getValue() + "'s " + store,
                                attempt -> restore(context, kind, store, p.getValue(), input));
                runs.computeIfAbsent(p.getKey(), k -> new ArrayList<>()).add(row);
            }
        }
        List<Runs<Row>> rows = new ArrayList<>();
        runs.values().forEach(r -> rows.add(Runs.of(r, Row::recordsPerSecond)));
        return rows;
    }

    private static String populate(BenchContext context, AppKind kind, String prefix, BenchContext.LoadedInput input)
            throws Exception {
        return context.retry().run("restore: population of " + prefix + kind.id(), attempt -> {
            String appId = context.name(prefix + kind.id() + "-a" + attempt);
            log.info("Restore: {} writes its changelog from {}", appId, input.topic());
            return context.runToEnd(kind, appId, input, TIMEOUT);
        });
    }

    private static Row restore(
            BenchContext context, AppKind kind, String store, String appId, BenchContext.LoadedInput input)
            throws TimeoutException, InterruptedException {
        RestoreProgress progress = new RestoreProgress();
        AppSetup setup = context.setup(appId, input.topic(), appId + "-out", progress);
        log.info("Restore: a fresh instance of {} restores its {}", appId, store);
        Started started;
        try (StreamingApp app = kind.open(setup)) {
            started = startAndAwaitRunning(app, appId);
        }
        Row row = new Row(
                kind, store, progress.records(), progress.restoreSeconds(), started.seconds(), started.cpuSeconds());
        log.info("Restore: {} {} records at {} records/s", appId, row.records(), Math.round(row.recordsPerSecond()));
        return row;
    }

    /** How long a fresh instance took from {@code start()} until it ran, and the CPU time this JVM used meanwhile. */
    record Started(double seconds, double cpuSeconds) {}

    /** Starts {@code app} and waits until it runs: every store restored (both libraries restore before they run). */
    static Started startAndAwaitRunning(StreamingApp app, String appId) throws TimeoutException, InterruptedException {
        long cpu = BenchContext.processCpuNanos();
        long start = System.nanoTime();
        app.start();
        long deadline = start + TIMEOUT.toNanos();
        while (!app.isRunning()) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException(appId + " did not restore within " + TIMEOUT);
            }
            Thread.sleep(10);
        }
        return new Started((System.nanoTime() - start) / 1e9, (BenchContext.processCpuNanos() - cpu) / 1e9);
    }
}
