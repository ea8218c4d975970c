package io.weir.examples;

import io.weir.streams.CloseOptions;
import io.weir.streams.HostInfo;
import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirStreams;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Three instances of the word count, each serving {@code GET /counts/{word}} ({@link CountsService}),
 * on a real broker: any instance answers for any word, by asking the instance that holds it, and keeps
 * answering after an instance leaves and its words move.
 */
@ExtendWith(KafkaBrokerExtension.class)
class CountsServiceTest {

    private record Instance(HostInfo host, WeirStreams streams, CountsService service) {
        void close() {
            service.close();
            streams.close();
        }

        /** Stops for good, leaving the group so that its words move at once (scaling in). */
        void leave() {
            service.close();
            streams.close(CloseOptions.within(Duration.ofSeconds(60)).withLeaveGroup(true));
        }
    }

    @Test
    void anyInstanceAnswersForAnyWordByRoutingToItsOwnerAcrossARebalance(
            KafkaBroker broker, @TempDir Path a, @TempDir Path b, @TempDir Path c) {
        broker.createTopic(WordCount.LINES, 3);
        broker.createTopic(WordCount.COUNTS_TOPIC, 3);
        Map<String, Long> expected = new TreeMap<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < 40; i++) {
                String line = "word" + (i % 13) + " Word" + (i % 7) + " other";
                producer.send(new ProducerRecord<>(WordCount.LINES, "l" + i, line));
                for (String w : line.toLowerCase(Locale.ROOT).split(" ", -1)) {
                    expected.merge(w, 1L, Long::sum);
                }
            }
        }
        List<Instance> instances = new ArrayList<>();
        try {
            for (Path dir : List.of(a, b, c)) {
                instances.add(start(broker, dir));
            }
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertEquals(expected, countsFrom(instances.get(0), expected)));
            // Cooperative rebalances may still move a task between the instances as they start: a word
            // whose task is moving answers 503 until it runs again.
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertEquals(
                            expected, countsFrom(instances.get(1), expected), "the same from another instance"));
            assertEquals(404, get(instances.get(2), "never-seen").status());

            instances.remove(2).leave();
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertEquals(expected, countsFrom(instances.get(1), expected)));
        } finally {
            instances.forEach(Instance::close);
        }
    }

    /** Every expected word's count as {@code instance} answers it; a word not answered with 200 is left out. */
    private static Map<String, Long> countsFrom(Instance instance, Map<String, Long> expected) {
        Map<String, Long> counts = new TreeMap<>();
        for (String word : expected.keySet()) {
            Response r = get(instance, word);
            if (r.status() == 200) {
                counts.put(word, Long.parseLong(r.body()));
            }
        }
        return counts;
    }

    private record Response(int status, String body) {}

    private static Response get(Instance instance, String word) {
        try {
            HttpURLConnection connection =
                    (HttpURLConnection) URI.create("http://" + instance.host() + "/counts/" + word)
                            .toURL()
                            .openConnection();
            try {
                int status = connection.getResponseCode();
                try (InputStream body = status < 400 ? connection.getInputStream() : connection.getErrorStream()) {
                    return new Response(
                            status, body == null ? "" : new String(body.readAllBytes(), StandardCharsets.UTF_8));
                }
            } finally {
                connection.disconnect();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Instance start(KafkaBroker broker, Path dir) {
        HostInfo host = new HostInfo("127.0.0.1", freePort());
        Map<String, Object> config = new HashMap<>();
        config.put(StreamsConfig.APPLICATION_ID, "counts-service");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers());
        config.put(StreamsConfig.STATE_DIR, dir.toString());
        config.put(StreamsConfig.APPLICATION_SERVER, host.toString());
        config.put("consumer.session.timeout.ms", 10_000);
        config.put("consumer.heartbeat.interval.ms", 1_000);
        WeirStreams streams = new WeirStreams(WordCount.topology(), config);
        CountsService service = new CountsService(streams, host);
        streams.start();
        return new Instance(host, streams, service);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
