package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Joined;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Table;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An aligned stream–table join and a table–table join on a real broker, across a rebalance (a second
 * instance joins) and a restart (the first leaves, the second restores its tasks, the aligned join's
 * buffer among them): every order is priced exactly once with the price valid at its event time, and the
 * table–table join's output applied as upserts is the relational join of the final tables.
 */
@ExtendWith(KafkaBrokerExtension.class)
class JoinIntegrationTest {

    private static final int ITEMS = 20;
    private static final int PHASES = 3;

    @Test
    void joinsKeepTheirResultsAcrossARebalanceAndARestart(KafkaBroker broker, @TempDir Path dirA, @TempDir Path dirB) {
        for (String topic : List.of("join-prices", "join-orders", "join-stock", "join-priced", "join-catalog")) {
            broker.createTopic(topic, 2);
        }
        long base = BaseTime.recentPast();
        Map<String, TreeMap<Long, String>> prices = new TreeMap<>();
        Map<String, String> stock = new TreeMap<>();
        List<String> expectedPriced = new ArrayList<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            WeirStreams first = null;
            WeirStreams second = null;
            try {
                for (int phase = 0; phase < PHASES; phase++) {
                    long start = base + phase * 100_000L;
                    for (int i = 0; i < ITEMS; i++) {
                        String item = "item-" + i;
                        String price = "p" + phase + "-" + i;
                        producer.send(new ProducerRecord<>("join-prices", null, start + i, item, price));
                        prices.computeIfAbsent(item, k -> new TreeMap<>()).put(start + i, price);
                        String count = phase == 1 && i % 5 == 0 ? null : Integer.toString(phase * 10 + i);
                        producer.send(new ProducerRecord<>("join-stock", null, start + i, item, count));
                        if (count == null) {
                            stock.remove(item);
                        } else {
                            stock.put(item, count);
                        }
                    }
                    producer.flush();
                    for (int n = 0; n < 100; n++) {
                        String item = "item-" + (n % ITEMS);
                        long time = start + n % 50;
                        String order = "o" + phase + "-" + n;
                        producer.send(new ProducerRecord<>("join-orders", null, time, item, order));
                        Map.Entry<Long, String> valid = prices.get(item).floorEntry(time);
                        expectedPriced.add(order + "@" + (valid == null ? "null" : valid.getValue()));
                    }
                    producer.flush();
                    if (phase == 0) {
                        first = instance(broker, dirA);
                    } else if (phase == 1) {
                        second = instance(broker, dirB);
                    } else {
                        assertTrue(first.close(Duration.ofSeconds(30)), "the first instance left cleanly");
                    }
                    int done = expectedPriced.size();
                    await().atMost(Duration.ofSeconds(90))
                            .until(() -> TopicReader.read(broker, "join-priced", "read_committed")
                                            .size()
                                    >= done);
                }
                List<String> priced = new ArrayList<>();
                for (ConsumerRecord<String, String> r : TopicReader.read(broker, "join-priced", "read_committed")) {
                    priced.add(r.value());
                }
                priced.sort(null);
                expectedPriced.sort(null);
                assertEquals(expectedPriced, priced, "each order once, with the price valid at its event time");
                Map<String, String> expectedCatalog = new TreeMap<>();
                stock.forEach((item, count) ->
                        expectedCatalog.put(item, prices.get(item).lastEntry().getValue() + "x" + count));
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                    Map<String, String> catalog = new TreeMap<>();
                    for (ConsumerRecord<String, String> r :
                            TopicReader.read(broker, "join-catalog", "read_committed")) {
                        if (r.value() == null) {
                            catalog.remove(r.key());
                        } else {
                            catalog.put(r.key(), r.value());
                        }
                    }
                    assertEquals(expectedCatalog, catalog, "the table join as upserts");
                });
            } finally {
                for (WeirStreams app : new WeirStreams[] {first, second}) {
                    if (app != null) {
                        app.close(Duration.ofSeconds(30));
                    }
                }
            }
        }
    }

    private static WeirStreams instance(KafkaBroker broker, Path dir) {
        StreamsBuilder builder = new StreamsBuilder();
        Table<String, String> prices = builder.table(
                "join-prices",
                Consumed.with(Serdes.String(), Serdes.String())
                        .withWatermarks(
                                WatermarkStrategy.forMonotonousTimestamps().withIdleness(Duration.ofSeconds(3))),
                Materialized.<String, String>as("prices").versioned(Duration.ofDays(1)));
        builder.stream("join-orders", Consumed.with(Serdes.String(), Serdes.String()))
                .leftJoin(
                        prices,
                        (order, price) -> order + "@" + price,
                        Joined.<String, String>aligned().withName("pricing"))
                .to("join-priced", Produced.with(Serdes.String(), Serdes.String()));
        Table<String, String> stock =
                builder.table("join-stock", Consumed.with(Serdes.String(), Serdes.String()), Materialized.as("stock"));
        prices.join(stock, (price, count) -> price + "x" + count)
                .toStream()
                .to("join-catalog", Produced.with(Serdes.String(), Serdes.String()));
        WeirStreams app = new WeirStreams(builder.build(), WindowedCountApp.config(broker, "joins", dir));
        app.start();
        return app;
    }
}
