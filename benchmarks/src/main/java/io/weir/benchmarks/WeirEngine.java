package io.weir.benchmarks;

import io.weir.streams.Topology;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestMetrics;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.Windowed;
import org.apache.kafka.common.serialization.Deserializer;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Weir's {@link TestDriver} with its defaults: a commit every 100 ms of processing time, 10 MiB of
 * write-back cache per task. Each commit writes the cache's dirty entries — the last value of every
 * window changed since the previous commit — to the store's changelog
 * {@code weir-bench-<store>-changelog}; a session count has two stores, so two changelogs. Results
 * are what the variant's {@link WeirPanes} say: by default one on-time pane per window, when the
 * watermark passes its end (and a late pane per late record).
 *
 * <p>Records the benchmark has read are dropped ({@code withKeepReadRecords(false)}), as Kafka
 * Streams' driver drops what its output topics return, so neither holds output already drained.
 */
final class WeirEngine implements Engine {

    static final String APPLICATION_ID = "weir-bench";

    private final TestDriver driver;
    private final TestInputTopic<String, String> input;
    private final TestOutputTopic<byte[], byte[]> results;
    private final List<TestOutputTopic<byte[], byte[]>> changelogs;
    private final boolean discarding;
    private final Deserializer<Windowed<String>> keyDeserializer =
            WindowedSerdes.string().deserializer();
    private final Deserializer<Long> countDeserializer = Serdes.Long().deserializer();

    /**
     * @param stores     the topology's stores, whose changelogs are drained
     * @param discarding whether a pane holds only what its window got since its previous pane
     */
    WeirEngine(Topology topology, List<String> stores, boolean discarding) {
        driver = new TestDriver(
                topology,
                TestDriverConfig.defaults()
                        .withApplicationId(APPLICATION_ID)
                        .withStartTime(Instant.ofEpochMilli(Workload.START))
                        .withKeepReadRecords(false));
        input = driver.input(Topics.INPUT, Serdes.String(), Serdes.String());
        results = driver.output(Topics.OUTPUT, Serdes.ByteArray(), Serdes.ByteArray());
        changelogs = stores.stream()
                .map(store -> driver.output(
                        APPLICATION_ID + "-" + store + "-changelog", Serdes.ByteArray(), Serdes.ByteArray()))
                .toList();
        this.discarding = discarding;
    }

    @Override
    public void pipe(String key, long eventTime, long arrivalTime) {
        input.pipe(TestRecord.of(key, Workload.VALUE).at(eventTime).arrivingAt(arrivalTime));
    }

    @Override
    public void drain(OutputTally tally) {
        List<OutputRecord<byte[], byte[]>> read = results.readAll();
        if (tally.decodes()) {
            for (OutputRecord<byte[], byte[]> r : read) {
                Windowed<String> windowed = keyDeserializer.deserialize(Topics.OUTPUT, r.key());
                long start = windowed.window().start();
                if (r.pane().map(PaneInfo::isRetraction).orElse(false)) {
                    tally.retraction(windowed.key(), start);
                } else if (discarding) {
                    tally.delta(windowed.key(), start, countDeserializer.deserialize(Topics.OUTPUT, r.value()));
                } else {
                    tally.result(windowed.key(), start, countDeserializer.deserialize(Topics.OUTPUT, r.value()));
                }
            }
        } else {
            tally.results(read.size());
        }
        for (TestOutputTopic<byte[], byte[]> changelog : changelogs) {
            long bytes = 0;
            List<OutputRecord<byte[], byte[]>> logged = changelog.readAll();
            for (OutputRecord<byte[], byte[]> r : logged) {
                byte[] key = r.key();
                byte[] value = r.value();
                bytes += (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
            }
            tally.changelog(logged.size(), bytes);
        }
    }

    @Override
    public Optional<WindowMetrics> windowMetrics() {
        TestMetrics metrics = driver.metrics();
        return Optional.of(new WindowMetrics(
                metrics.get(CountTopologies.STORE, WeirMetrics.LATE_RECORDS_ADDED),
                metrics.get(CountTopologies.STORE, WeirMetrics.LATE_RECORDS_DROPPED),
                metrics.get(CountTopologies.STORE, WeirMetrics.SESSIONS_MERGED)));
    }

    @Override
    public void close() {
        driver.close();
    }
}
