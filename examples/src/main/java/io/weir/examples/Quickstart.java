package io.weir.examples;

import io.weir.streams.test.kafka.KafkaBroker;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The smallest real pipeline: payments written in one committed and one aborted Kafka transaction,
 * read back at both isolation levels. Shows the boundary Weir's exactly-once output relies on:
 * a {@code read_committed} reader never sees an aborted transaction's records.
 */
final class Quickstart {

    static final Set<String> OPTIONS = Set.of("bootstrap-servers");

    private static final int PARTITIONS = 3;
    private static final int COMMITTED = 6;
    private static final int ABORTED = 3;

    private final Options options;
    private final PrintStream out;

    Quickstart(Options options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    int run() {
        String topic = "quickstart-payments-" + System.currentTimeMillis();
        try (KafkaBroker broker = ExampleBroker.start(options, 0, out)) {
            broker.createTopic(topic, PARTITIONS);
            out.println("Created topic " + topic + " with " + PARTITIONS + " partitions");

            writePayments(broker.bootstrapServers(), topic);

            List<ConsumerRecord<String, String>> committed =
                    readAll(broker.bootstrapServers(), topic, "read_committed");
            List<ConsumerRecord<String, String>> everything =
                    readAll(broker.bootstrapServers(), topic, "read_uncommitted");
            for (ConsumerRecord<String, String> r : committed) {
                out.printf(
                        "  read_committed  partition %d offset %2d  %s -> %s%n",
                        r.partition(), r.offset(), r.key(), r.value());
            }
            out.printf(
                    "read_committed saw %d records; read_uncommitted saw %d: the aborted transaction's %d stay invisible "
                            + "to read_committed readers.%n",
                    committed.size(), everything.size(), ABORTED);
            boolean ok = committed.size() == COMMITTED
                    && everything.size() == COMMITTED + ABORTED
                    && committed.stream().noneMatch(r -> r.value().startsWith("aborted"));
            out.println(ok ? "OK" : "UNEXPECTED: the broker did not isolate the aborted transaction");
            return ok ? 0 : 1;
        }
    }

    private void writePayments(String bootstrap, String topic) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                        topic + "-writer",
                        ProducerConfig.MAX_BLOCK_MS_CONFIG,
                        30_000),
                new StringSerializer(),
                new StringSerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int i = 1; i <= COMMITTED; i++) {
                // Committing the transaction checks every send; the futures add nothing.
                @SuppressWarnings("FutureReturnValueIgnored")
                var unused = producer.send(
                        new ProducerRecord<>(topic, "card-" + (i % 3), "payment-" + i + " EUR " + (10 * i)));
            }
            producer.commitTransaction();
            out.println("Committed a transaction of " + COMMITTED + " payments");
            producer.beginTransaction();
            for (int i = 1; i <= ABORTED; i++) {
                // Aborted on purpose: the quick start shows read_committed never returns these.
                @SuppressWarnings("FutureReturnValueIgnored")
                var unused = producer.send(new ProducerRecord<>(topic, "card-" + (i % 3), "aborted-payment-" + i));
            }
            producer.flush();
            producer.abortTransaction();
            out.println("Aborted a transaction of " + ABORTED + " payments (they were written to the log)");
        }
    }

    private static List<ConsumerRecord<String, String>> readAll(String bootstrap, String topic, String isolation) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation),
                new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .collect(Collectors.toList());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            List<ConsumerRecord<String, String>> records = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.getOrDefault(p, 0L))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "Could not read " + topic + " to its end offsets " + end + " in 30 s");
                }
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            return records;
        }
    }
}
