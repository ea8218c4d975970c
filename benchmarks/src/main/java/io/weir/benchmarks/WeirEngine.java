package io.weir.benchmarks;

import io.weir.streams.dsl.Windowed;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.state.StoreType;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import org.apache.kafka.common.serialization.Deserializer;

import java.time.Instant;
import java.util.List;

/**
 * Weir's {@link TestDriver} with its defaults: a commit every 100 ms of processing time, 10 MiB of
 * write-back cache per task. Each commit writes the cache's dirty entries — the last value of every
 * window changed since the previous commit — to the changelog {@code weir-bench-counts-changelog}.
 * Results are Weir's default on-time panes: one per window, when the watermark passes its end.
 *
 * <p>Records the benchmark has read are dropped ({@code withKeepReadRecords(false)}), as Kafka
 * Streams' driver drops what its output topics return, so neither holds output already drained.
 */
final class WeirEngine implements Engine {

    static final String APPLICATION_ID = "weir-bench";

    private final TestDriver driver;
    private final TestInputTopic<String, String> input;
    private final TestOutputTopic<byte[], byte[]> results;
    private final TestOutputTopic<byte[], byte[]> changelog;
    private final Deserializer<Windowed<String>> keyDeserializer = WindowedSerdes.string().deserializer();
    private final Deserializer<Long> countDeserializer = Serdes.Long().deserializer();

    WeirEngine(StoreType storeType) {
        driver = new TestDriver(CountTopologies.weir(Topics.INPUT, Topics.OUTPUT, storeType), TestDriverConfig.defaults()
                .withApplicationId(APPLICATION_ID)
                .withStartTime(Instant.ofEpochMilli(Workload.START))
                .withKeepReadRecords(false));
        input = driver.input(Topics.INPUT, Serdes.String(), Serdes.String());
        results = driver.output(Topics.OUTPUT, Serdes.ByteArray(), Serdes.ByteArray());
        changelog = driver.output(APPLICATION_ID + "-" + CountTopologies.STORE + "-changelog", Serdes.ByteArray(), Serdes.ByteArray());
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
                tally.result(windowed.key(), windowed.window().start(), countDeserializer.deserialize(Topics.OUTPUT, r.value()));
            }
        } else {
            tally.results(read.size());
        }
        tally.changelogRecords(changelog.readAll().size());
    }

    @Override
    public void close() {
        driver.close();
    }
}
