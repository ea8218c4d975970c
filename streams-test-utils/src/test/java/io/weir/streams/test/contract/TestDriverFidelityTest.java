package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.WeirMetrics;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.state.StoreType;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.kafka.TempDirs;
import io.weir.streams.time.WatermarkStrategy;
import io.weir.streams.time.Windowed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The TestDriver behaves as the runtime does where tests can see it: a driver reopened on a state
 * directory restores each task's watermark from its last commit, and output records carry the
 * watermark that produced them.
 */
class TestDriverFidelityTest {

    private static Topology counting() {
        return counting(StoreType.ROCKSDB);
    }

    private static Topology counting(StoreType type) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "clicks",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofSeconds(10)))
                .count(Materialized.<String, Long>as("counts").withStoreType(type))
                .toStream()
                .to("out", Produced.with(WindowedSerdes.string(), Serdes.Long()));
        return builder.build();
    }

    @Test
    void aReopenedDriverJudgesLatenessFromTheCommittedWatermark() throws Exception {
        Path dir = Files.createTempDirectory("weir-fidelity-");
        try {
            TestDriverConfig config = TestDriverConfig.defaults().withStateDir(dir);
            try (TestDriver first = new TestDriver(counting(), config)) {
                first.input("clicks", Serdes.String(), Serdes.String()).pipe("u", "c", 100_000);
                first.commit();
                assertEquals(99_999, first.watermark("clicks", 0));
            }
            try (TestDriver reopened = new TestDriver(counting(), config)) {
                assertEquals(99_999, reopened.watermark("clicks", 0), "restored, not -infinity");
                reopened.input("clicks", Serdes.String(), Serdes.String()).pipe("u", "c", 15_000);
                assertEquals(1, reopened.metrics().get("counts", WeirMetrics.LATE_RECORDS_DROPPED));
            }
        } finally {
            TempDirs.deleteRecursively(dir);
        }
    }

    @Test
    void anOutputRecordCarriesTheWatermarkThatFiredIt() {
        try (TestDriver driver = new TestDriver(counting())) {
            TestInputTopic<String, String> clicks = driver.input("clicks", Serdes.String(), Serdes.String());
            clicks.pipe("u", "c", 1_000);
            clicks.pipe("u", "c", 12_000);
            List<OutputRecord<Windowed<String>, Long>> out =
                    driver.output("out", WindowedSerdes.string(), Serdes.Long()).readAll();
            assertEquals(1, out.size());
            assertEquals(11_999, out.get(0).watermark());
            assertEquals(9_999, out.get(0).timestamp());
        }
    }

    @ParameterizedTest
    @EnumSource(StoreType.class)
    void restartKeepsCommittedStateAndTheWatermark(StoreType type) {
        try (TestDriver driver = new TestDriver(counting(type))) {
            TestInputTopic<String, String> clicks = driver.input("clicks", Serdes.String(), Serdes.String());
            clicks.pipe("u", "c", 21_000);
            clicks.pipe("u", "c", 22_000);
            driver.restart();
            assertEquals(21_999, driver.watermark("clicks", 0), "restored from the last commit");
            clicks.pipe("u", "c", 5_000);
            assertEquals(1, driver.metrics().get("counts", WeirMetrics.LATE_RECORDS_DROPPED), "judged as before");
            clicks.pipe("u", "c", 23_000);
            driver.endOfInput();
            assertEquals(
                    List.of(3L),
                    driver.output("out", WindowedSerdes.string(), Serdes.Long()).readValues(),
                    "the two records before the restart and the one after, in one window");
        }
    }
}
