package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.GlobalTable;
import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.QueryableStoreType;
import io.weir.streams.state.ReadOnlyKeyValueStore;
import io.weir.streams.state.StoreQuery;
import io.weir.streams.state.StoreUnavailableException;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
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

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A global table on a real broker: every instance reads all of its topic to the end before any task
 * processes a record, then follows its updates.
 */
@ExtendWith(KafkaBrokerExtension.class)
class GlobalTableIntegrationTest {

    private static final int CARDS = 300;

    /** Writes each payment with its card's country, as the global table has it when the payment is processed. */
    private record WithCountry(String table) implements KeyedProcessor<String, String, String, String> {
        @Override
        public void process(String card, String payment, KeyedProcessorContext<String, String, String> context) {
            String country = context.<String, String>globalTable(table).get(card);
            context.forward(card, payment + "@" + (country == null ? "unknown" : country));
        }
    }

    @Test
    void theTableIsBootstrappedBeforeAnyTaskProcessesThenFollowsItsTopicAndAnswersQueries(
            KafkaBroker broker, @TempDir Path dir) {
        broker.createTopic("global-countries", 3);
        broker.createTopic("global-payments", 2);
        broker.createTopic("global-enriched", 2);
        broker.createTopic("global-joined", 2);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            // The payments are there before the instance starts, right after the countries: a task that
            // ran before the global table was read to its end would find cards without a country.
            for (int i = 0; i < CARDS; i++) {
                producer.send(new ProducerRecord<>("global-countries", "card-" + i, "country-" + i));
            }
            producer.flush();
            for (int i = 0; i < CARDS; i++) {
                producer.send(new ProducerRecord<>("global-payments", "card-" + i, "p" + i));
            }
            producer.flush();

            StreamsBuilder builder = new StreamsBuilder();
            GlobalTable<String, String> countries =
                    builder.globalTable("global-countries", Consumed.with(Serdes.String(), Serdes.String()));
            EventStream<String, String> payments =
                    builder.stream("global-payments", Consumed.with(Serdes.String(), Serdes.String()));
            payments.groupByKey()
                    .process(() -> new WithCountry(countries.storeName()))
                    .to("global-enriched", Produced.with(Serdes.String(), Serdes.String()));
            // The same through the DSL's join, which reads the table the same way.
            payments.join(countries, (card, payment) -> card, (payment, country) -> payment + "@" + country)
                    .to("global-joined", Produced.with(Serdes.String(), Serdes.String()));
            try (WeirStreams app = new WeirStreams(builder.build(), WindowedCountApp.config(broker, "global", dir))) {
                app.start();
                assertEveryPaymentHasItsCountry(broker, "global-enriched");
                assertEveryPaymentHasItsCountry(broker, "global-joined");
                // The table is queryable like any other, on every instance, for every key.
                ReadOnlyKeyValueStore<String, String> queried =
                        app.store(countries.storeName(), QueryableStoreType.keyValueStore());
                assertEquals("country-3", queried.get("card-3"));
                List<String> scanned = new ArrayList<>();
                app.store(StoreQuery.of(countries.storeName(), QueryableStoreType.<String, String>keyValueStore())
                                .withScanLimit(4))
                        .forEach((card, country) -> scanned.add(country));
                assertEquals(4, scanned.size());
                IllegalArgumentException wrongType = assertThrows(
                        IllegalArgumentException.class,
                        () -> app.store(countries.storeName(), QueryableStoreType.windowStore()));
                assertTrue(wrongType.getMessage().contains("global table"), wrongType.getMessage());

                producer.send(new ProducerRecord<>("global-countries", "card-7", "moved"));
                producer.flush();
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                    producer.send(new ProducerRecord<>("global-payments", "card-7", "q"));
                    producer.flush();
                    assertTrue(
                            TopicReader.read(broker, "global-enriched", "read_committed").stream()
                                    .anyMatch(r -> r.value().equals("q@moved")),
                            "the update reached the table");
                    assertTrue(
                            TopicReader.read(broker, "global-joined", "read_committed").stream()
                                    .anyMatch(r -> r.value().equals("q@moved")),
                            "the join reads the updated row");
                });
                assertEquals("moved", queried.get("card-7"));
                assertTrue(app.close(Duration.ofSeconds(30)));
                StoreUnavailableException stopped =
                        assertThrows(StoreUnavailableException.class, () -> queried.get("card-3"));
                assertEquals(StoreUnavailableException.Reason.NOT_RUNNING, stopped.reason());
            }
        }
    }

    /** Waits for {@value #CARDS} records in {@code topic} and checks each is its payment with its card's country. */
    private static void assertEveryPaymentHasItsCountry(KafkaBroker broker, String topic) {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> TopicReader.read(broker, topic, "read_committed").size() >= CARDS);
        List<ConsumerRecord<String, String>> records = TopicReader.read(broker, topic, "read_committed");
        assertEquals(CARDS, records.size(), topic + ": one record per payment, none dropped");
        for (ConsumerRecord<String, String> r : records) {
            String card = r.key().substring("card-".length());
            assertEquals("p" + card + "@country-" + card, r.value(), topic + ": every payment found its country");
        }
    }
}
