package io.weir.examples;

import com.sun.net.httpserver.HttpServer;
import io.weir.streams.CloseOptions;
import io.weir.streams.HostInfo;
import io.weir.streams.KeyMetadata;
import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirStreams;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Instances of the word count, each serving {@code GET /counts/{word}} ({@link CountsService}), on a real
 * broker: any instance answers for any word, by asking the instance that holds it, and keeps answering
 * after an instance leaves and its words move. And the service's guards, one rule per test: GET only,
 * plain text that never repeats the request, forwarding only to the owner the assignment names, slow
 * clients cut off, and a bounded queue answered 503 when full.
 */
@ExtendWith(KafkaBrokerExtension.class)
class CountsServiceTest {

    /** Seconds a client has to send its request here: short, so that the slow-client tests are quick. */
    private static final int MAX_REQUEST_SECONDS = 4;

    static {
        // JVM-wide, read when the JVM's first HttpServer is made; CountsService would otherwise set its default.
        System.setProperty("sun.net.httpserver.maxReqTime", Integer.toString(MAX_REQUEST_SECONDS));
    }

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
        createTopics(broker);
        Map<String, Long> expected = new TreeMap<>();
        try (KafkaProducer<String, String> producer = producer(broker)) {
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
                instances.add(start(broker, dir, "counts-service", CountsService.Limits.defaults()));
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

    @Test
    void answersGetOnlyOtherMethods405WithAllow(KafkaBroker broker, @TempDir Path dir) {
        try (Unstarted s = unstarted(broker, dir, new CountsService.Limits(2, 4, SECOND, SECOND))) {
            for (String method : List.of("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "HEAD")) {
                Raw r = raw(s.host(), method + " /counts/word HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                assertEquals(405, r.status(), method);
                assertEquals("GET", r.header("Allow"), method);
                assertEquals("text/plain; charset=utf-8", r.header("Content-Type"), method);
            }
            // GET reaches the service: no rebalance yet, so no owner is known.
            Raw get = raw(s.host(), "GET /counts/word HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertEquals(503, get.status());
            assertEquals("text/plain; charset=utf-8", get.header("Content-Type"));
        }
    }

    @Test
    void answersPlainTextThatNeverRepeatsTheRequest(KafkaBroker broker, @TempDir Path dir) {
        try (Unstarted s = unstarted(broker, dir, new CountsService.Limits(2, 4, SECOND, SECOND))) {
            for (String path : List.of(
                    "/counts/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
                    "/counts/x%0D%0ASet-Cookie:%20injected=1",
                    "/counts/%1B%5B31mred%00",
                    "/counts/%E2%80%AEevil",
                    "/counts/",
                    "/counts/a%2F..%2F..%2Fetc")) {
                Raw r = raw(s.host(), "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                assertTrue(r.status() == 400 || r.status() == 503, path + ": " + r.status());
                assertEquals("text/plain; charset=utf-8", r.header("Content-Type"), path);
                assertEquals("nosniff", r.header("X-Content-Type-Options"), path);
                assertNull(r.header("Set-Cookie"), path);
                for (String echoed : List.of("<", "script", "injected", "\u001b", "\u0000", "\u202e", "etc")) {
                    assertFalse(r.body().contains(echoed), () -> path + " echoed: " + r.body());
                }
            }
            // Control characters sent raw are refused by the JDK's own parser, before the service: still no echo.
            Raw r = raw(s.host(), "GET /counts/a\u0007<b> HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertEquals(400, r.status());
            assertFalse(r.body().contains("<b>"), r.body());
        }
    }

    @Test
    void aSlowClientHoldsAThreadOnlyUntilItsRequestTimeAndNotTheOthers(KafkaBroker broker, @TempDir Path dir)
            throws IOException {
        try (Unstarted s = unstarted(broker, dir, new CountsService.Limits(2, 4, SECOND, SECOND));
                Socket slow = new Socket(s.host().host(), s.host().port())) {
            long start = System.nanoTime();
            slow.getOutputStream().write("GET /counts/wo".getBytes(StandardCharsets.US_ASCII));
            slow.getOutputStream().flush();
            CompletableFuture<Long> cutAfter = CompletableFuture.supplyAsync(() -> {
                readToEnd(slow);
                return System.nanoTime() - start;
            });
            // Another client is answered while the slow one trickles.
            Raw other = raw(s.host(), "GET /counts/word HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertEquals(503, other.status());
            assertTrue(other.body().startsWith("no instance holds the word"), other.body());
            assertFalse(cutAfter.isDone(), "answered while the slow client was still connected");
            // And the slow one is cut off once its time to send a request has passed.
            long nanos = cutAfter.join();
            assertTrue(
                    nanos >= TimeUnit.SECONDS.toNanos(MAX_REQUEST_SECONDS) - TimeUnit.MILLISECONDS.toNanos(500)
                            && nanos < TimeUnit.SECONDS.toNanos(MAX_REQUEST_SECONDS + 5),
                    "cut after " + TimeUnit.NANOSECONDS.toMillis(nanos) + " ms");
        }
    }

    @Test
    void whenEveryThreadAndTheQueueAreTakenARequestIsAnswered503(KafkaBroker broker, @TempDir Path dir)
            throws IOException {
        // One thread and a queue of one: two slow clients take both.
        try (Unstarted s = unstarted(broker, dir, new CountsService.Limits(1, 1, SECOND, SECOND));
                Socket slow1 = new Socket(s.host().host(), s.host().port());
                Socket slow2 = new Socket(s.host().host(), s.host().port())) {
            for (Socket slow : List.of(slow1, slow2)) {
                slow.getOutputStream().write("GET /counts/wo".getBytes(StandardCharsets.US_ASCII));
                slow.getOutputStream().flush();
            }
            String request = "GET /counts/word HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
            await().atMost(Duration.ofSeconds(MAX_REQUEST_SECONDS - 1)).untilAsserted(() -> {
                Raw r = raw(s.host(), request);
                assertEquals(503, r.status());
                assertEquals("busy; ask again", r.body());
                assertEquals("1", r.header("Retry-After"));
            });
            // Once the slow clients are cut off, requests reach the service again.
            await().atMost(Duration.ofSeconds(MAX_REQUEST_SECONDS + 10))
                    .untilAsserted(
                            () -> assertTrue(raw(s.host(), request).body().startsWith("no instance holds")));
        }
    }

    @Test
    void forwardsOnlyToTheOwnerTheAssignmentNamesWhateverTheHeadersSay(
            KafkaBroker broker, @TempDir Path a, @TempDir Path b) throws IOException {
        createTopics(broker);
        // Words only this test writes, so their counts are known whatever other tests wrote.
        Map<String, Long> expected = new TreeMap<>();
        try (KafkaProducer<String, String> producer = producer(broker)) {
            for (int i = 0; i < 30; i++) {
                String line = "fwd" + (i % 11) + " fwd" + (i % 5);
                producer.send(new ProducerRecord<>(WordCount.LINES, "f" + i, line));
                for (String w : line.split(" ", -1)) {
                    expected.merge(w, 1L, Long::sum);
                }
            }
        }
        AtomicInteger trapped = new AtomicInteger();
        HttpServer trap = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        trap.createContext("/", exchange -> {
            trapped.incrementAndGet();
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        trap.start();
        String trapHost = "127.0.0.1:" + trap.getAddress().getPort();
        CountsService.Limits limits = new CountsService.Limits(4, 16, SECOND, Duration.ofSeconds(2));
        Instance first = start(broker, a, "counts-forwarding", limits);
        Instance second = start(broker, b, "counts-forwarding", limits);
        List<Socket> silent = new CopyOnWriteArrayList<>();
        try {
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertEquals(expected, countsFrom(first, expected)));

            // Headers naming another host change nothing: the request goes to the word's owner.
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                String word = ownedBy(first, second.host(), expected);
                for (String forged :
                        List.of("Host: " + trapHost, "X-Forwarded-Host: " + trapHost, "Forwarded: host=" + trapHost)) {
                    Raw r = raw(
                            first.host(),
                            "GET /counts/" + word + " HTTP/1.1\r\n" + forged + "\r\nConnection: close\r\n\r\n");
                    assertEquals(200, r.status(), forged);
                    assertEquals(expected.get(word).toString(), r.body(), forged);
                }
            });
            // The forwarding marker, forged: the owner answers it; another instance does not forward it anywhere.
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                String word = ownedBy(first, second.host(), expected);
                String marked = "GET /counts/" + word + " HTTP/1.1\r\nHost: x\r\n" + CountsService.FORWARDED + ": "
                        + trapHost + "\r\nConnection: close\r\n\r\n";
                Raw atOwner = raw(second.host(), marked);
                assertEquals(200, atOwner.status());
                assertEquals(expected.get(word).toString(), atOwner.body());
                Raw elsewhere = raw(first.host(), marked);
                assertEquals(503, elsewhere.status());
                assertEquals("this instance does not hold the word now; ask again", elsewhere.body());
            });
            assertEquals(0, trapped.get(), "a request reached the host a header named");

            // A word never seen: 404, its text not repeated, asked at the owner or through another instance.
            for (Instance asked : List.of(first, second)) {
                Raw r = raw(
                        asked.host(),
                        "GET /counts/%3Cb%3Enever%3C%2Fb%3E HTTP/1.1\r\nHost: x\r\nConnection: close" + "\r\n\r\n");
                assertEquals(404, r.status(), r.body());
                assertEquals("never seen", r.body());
            }

            // An owner that accepts the connection but never answers: 503 once the forward times out.
            String word = ownedBy(first, second.host(), expected);
            second.service().close();
            try (ServerSocket hanging = new ServerSocket()) {
                hanging.setReuseAddress(true);
                hanging.bind(new InetSocketAddress(
                        second.host().host(), second.host().port()));
                CompletableFuture<Void> accepting = CompletableFuture.runAsync(() -> {
                    try {
                        while (true) {
                            silent.add(hanging.accept());
                        }
                    } catch (IOException closed) {
                        // The test is over.
                    }
                });
                long start = System.nanoTime();
                Raw r = raw(first.host(), "GET /counts/" + word + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertEquals(503, r.status(), r.body());
                assertTrue(r.body().endsWith("did not answer in time"), r.body());
                assertTrue(millis >= 1_500 && millis < 8_000, "answered after " + millis + " ms");
                assertFalse(accepting.isDone());
            }
        } finally {
            first.close();
            second.streams().close();
            trap.stop(0);
            for (Socket socket : silent) {
                socket.close();
            }
        }
    }

    private static final Duration SECOND = Duration.ofSeconds(1);

    /** A service over an application that is never started: no owner is known, every GET is answered 503. */
    private record Unstarted(HostInfo host, WeirStreams streams, CountsService service) implements AutoCloseable {
        @Override
        public void close() {
            service.close();
            streams.close();
        }
    }

    private static Unstarted unstarted(KafkaBroker broker, Path dir, CountsService.Limits limits) {
        HostInfo host = new HostInfo("127.0.0.1", freePort());
        Map<String, Object> config = new HashMap<>();
        config.put(StreamsConfig.APPLICATION_ID, "counts-service-unstarted");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers());
        config.put(StreamsConfig.STATE_DIR, dir.toString());
        config.put(StreamsConfig.APPLICATION_SERVER, host.toString());
        WeirStreams streams = new WeirStreams(WordCount.topology(), config);
        return new Unstarted(host, streams, new CountsService(streams, host, limits));
    }

    /** A word of {@code words} that {@code asked}'s view of the assignment places on {@code owner}. */
    private static String ownedBy(Instance asked, HostInfo owner, Map<String, Long> words) {
        for (String word : words.keySet()) {
            Optional<KeyMetadata> m = asked.streams()
                    .metadataForKey(WordCount.COUNTS, word, Serdes.String().serializer());
            if (m.isPresent() && m.get().activeHost().equals(owner)) {
                return word;
            }
        }
        throw new AssertionError("no word is placed on " + owner + " yet");
    }

    /** A response read from the wire, as the server sent it. */
    private record Raw(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** Sends {@code request} as it is (it asks to close the connection) and reads the whole response. */
    private static Raw raw(HostInfo host, String request) {
        try (Socket socket = new Socket(host.host(), host.port())) {
            socket.setSoTimeout(15_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            String response = new String(readToEnd(socket), StandardCharsets.UTF_8);
            int end = response.indexOf("\r\n\r\n");
            assertTrue(end > 0, () -> "no response: " + response);
            String[] lines = response.substring(0, end).split("\r\n", -1);
            Map<String, String> headers = new HashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.put(
                        lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim());
            }
            return new Raw(Integer.parseInt(lines[0].split(" ", -1)[1]), headers, response.substring(end + 4));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] readToEnd(Socket socket) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[4096];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                bytes.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new UncheckedIOException(e);
        } catch (IOException e) {
            // Reset by the server: what arrived before is the answer.
        }
        return bytes.toByteArray();
    }

    private static void createTopics(KafkaBroker broker) {
        for (String topic : List.of(WordCount.LINES, WordCount.COUNTS_TOPIC)) {
            try {
                broker.createTopic(topic, 3);
            } catch (RuntimeException e) {
                // Another test of this class (the broker is shared) made it.
                Throwable c = e;
                while (c != null && !(c instanceof TopicExistsException)) {
                    c = c.getCause();
                }
                if (c == null) {
                    throw e;
                }
            }
        }
    }

    private static KafkaProducer<String, String> producer(KafkaBroker broker) {
        return new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringSerializer(),
                new StringSerializer());
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

    private static Instance start(KafkaBroker broker, Path dir, String applicationId, CountsService.Limits limits) {
        HostInfo host = new HostInfo("127.0.0.1", freePort());
        Map<String, Object> config = new HashMap<>();
        config.put(StreamsConfig.APPLICATION_ID, applicationId);
        config.put(StreamsConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers());
        config.put(StreamsConfig.STATE_DIR, dir.toString());
        config.put(StreamsConfig.APPLICATION_SERVER, host.toString());
        config.put("consumer.session.timeout.ms", 10_000);
        config.put("consumer.heartbeat.interval.ms", 1_000);
        WeirStreams streams = new WeirStreams(WordCount.topology(), config);
        CountsService service = new CountsService(streams, host, limits);
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
