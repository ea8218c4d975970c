package io.weir.streams.test;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.time.WatermarkStrategy;
import io.weir.streams.time.Windowed;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.weir.streams.test.Times.at;
import static org.junit.jupiter.api.Assertions.assertEquals;

class TestDriverSmokeTest {

    @Test
    void theDesignGuidesFraudExample() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        "payments",
                        Consumed.with(Serdes.String(), Serdes.String())
                                .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(Duration.ofSeconds(5))))
                .groupByKey()
                .windowedBy(TumblingWindows.of(Duration.ofMinutes(1)).withAllowedLateness(Duration.ofMinutes(10)))
                .lateRecordsTo("payments-late")
                .count(Materialized.as("payments-per-card"))
                .toStream()
                .filter((window, count) -> count > 5)
                .to("fraud-alerts");
        try (TestDriver driver = new TestDriver(builder.build())) {
            var payments = driver.input("payments", Serdes.String(), Serdes.String());
            var alerts = driver.output("fraud-alerts", WindowedSerdes.string(), Serdes.Long());
            for (int i = 0; i < 6; i++) {
                payments.pipe("card-7", "payment", at("12:00:1" + i));
            }
            payments.pipe("card-9", "payment", at("12:01:06"));
            List<OutputRecord<Windowed<String>, Long>> fired = alerts.readAll();
            assertEquals(1, fired.size(), fired.toString());
            assertEquals("card-7", fired.get(0).key().key());
            assertEquals(6L, fired.get(0).value());
        }
    }
}
