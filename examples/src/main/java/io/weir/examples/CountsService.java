package io.weir.examples;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.weir.streams.HostInfo;
import io.weir.streams.InstanceMetadata;
import io.weir.streams.KeyMetadata;
import io.weir.streams.WeirStreams;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.QueryableStoreType;
import io.weir.streams.state.StoreUnavailableException;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The word counts of {@link WordCount} served over HTTP by every instance, with the JDK's {@link
 * HttpServer} and no framework: {@code GET /counts/{word}} (the word percent-encoded) answers {@code 200}
 * and the count, {@code 404} for a word never seen, {@code 503} while the answer is not available (a
 * rebalance, a restore, this instance busy; ask again). Any instance can be asked: one that does not hold
 * the word asks the instance that does, once, and relays its answer. Each instance listens on the {@code
 * application.server} it gave Weir. Owns its server and threads; {@link #close()} stops them.
 *
 * <p>What it does not trust:
 *
 * <ul>
 *   <li>Methods: {@code GET} only; any other method is answered {@code 405} with {@code Allow: GET}.
 *   <li>Input: every answer is {@code text/plain; charset=utf-8} ({@code nosniff}) and none repeats the
 *       request: the word is never echoed, so nothing a client sends is reflected back to anyone.
 *   <li>Where to forward: only to the instance that the current assignment names as the word's owner
 *       ({@link WeirStreams#metadataForKey}, checked against {@link WeirStreams#allMetadata}), never to a
 *       host named by the request. A forwarded request carries a marker header; the marker only stops
 *       further forwarding: the receiver answers if the assignment names it the owner and {@code 503}
 *       otherwise, so a forged marker can make a request fail but not go anywhere, and there are no loops.
 *   <li>Load: requests run on a fixed number of threads with a bounded queue; when both are full a request
 *       is answered {@code 503} with {@code Retry-After} by one more thread (with its own bounded queue;
 *       past that the connection is closed). Forwarding has a connect and a request timeout.
 *   <li>Slow clients: the JDK server closes a connection whose request is not complete within {@code
 *       sun.net.httpserver.maxReqTime} seconds, so a client that trickles bytes holds a thread for a bounded
 *       time (a request that waits in the queue that long is closed unanswered too), and one whose response
 *       is not sent within {@code sun.net.httpserver.maxRspTime} seconds of its request. These are JVM-wide
 *       and read once, when the JVM's first {@code HttpServer} is made: this class sets them ({@value
 *       #MAX_REQUEST_SECONDS} s and {@value #MAX_RESPONSE_SECONDS} s) unless they are set already, for
 *       example with {@code -D}, and has no effect on them if another {@code HttpServer} came first.
 * </ul>
 *
 * <p>It has no TLS and no authentication, between instances or for clients: it belongs on a private
 * network. See docs/concepts/queries.md for what a production service adds.
 */
public final class CountsService implements AutoCloseable {

    /** Seconds a client has to send a whole request, unless {@code sun.net.httpserver.maxReqTime} is set. */
    public static final int MAX_REQUEST_SECONDS = 5;

    /**
     * Seconds from a complete request to the end of its response, unless {@code sun.net.httpserver.maxRspTime}
     * is set: more than a forward may take ({@link Limits#connectTimeout()} and {@link Limits#forwardTimeout()}).
     */
    public static final int MAX_RESPONSE_SECONDS = 15;

    static {
        // Before any HttpServer of this JVM exists (this class makes the first, unless the application did).
        setIfAbsent("sun.net.httpserver.maxReqTime", Integer.toString(MAX_REQUEST_SECONDS));
        setIfAbsent("sun.net.httpserver.maxRspTime", Integer.toString(MAX_RESPONSE_SECONDS));
    }

    private static final String PATH = "/counts/";
    /** Marks a request one instance forwarded to another; its value is ignored. */
    static final String FORWARDED = "X-Weir-Forwarded";

    private static final int MAX_RELAYED_BYTES = 1024;

    /**
     * How much the service takes on: {@code threads} answer requests, {@code queue} more may wait, and a
     * forward to another instance connects within {@code connectTimeout} and is answered within {@code
     * forwardTimeout}.
     */
    public record Limits(int threads, int queue, Duration connectTimeout, Duration forwardTimeout) {
        public Limits {
            if (threads < 1 || queue < 1) {
                throw new IllegalArgumentException("threads and queue must be at least 1");
            }
            if (connectTimeout.isNegative()
                    || connectTimeout.isZero()
                    || forwardTimeout.isNegative()
                    || forwardTimeout.isZero()) {
                throw new IllegalArgumentException("timeouts must be positive");
            }
        }

        public static Limits defaults() {
            return new Limits(8, 64, Duration.ofSeconds(1), Duration.ofSeconds(5));
        }
    }

    private final WeirStreams streams;
    private final HostInfo self;
    private final Limits limits;
    private final ThreadPoolExecutor workers;
    private final ThreadPoolExecutor shedder;
    private final HttpClient client;
    private final HttpServer server;

    /** Set on the thread that answers requests the workers had no room for. */
    private static final ThreadLocal<Boolean> SHEDDING = ThreadLocal.withInitial(() -> false);

    /** Starts serving on {@code self}'s port; {@code streams} must have been given {@code self} as its application.server. */
    public CountsService(WeirStreams streams, HostInfo self) {
        this(streams, self, Limits.defaults());
    }

    public CountsService(WeirStreams streams, HostInfo self, Limits limits) {
        this.streams = streams;
        this.self = self;
        this.limits = limits;
        // What the workers have no room for gets a quick 503 from one more thread; when that one's queue is
        // full too, the rejection reaches the server, which closes the connection.
        this.shedder = new ThreadPoolExecutor(
                1,
                1,
                0,
                TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(limits.queue()),
                named("counts-service-busy-" + self.port()),
                new ThreadPoolExecutor.AbortPolicy());
        this.workers = new ThreadPoolExecutor(
                limits.threads(),
                limits.threads(),
                0,
                TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(limits.queue()),
                named("counts-service-" + self.port()),
                (request, pool) -> shedder.execute(() -> {
                    SHEDDING.set(true);
                    try {
                        request.run();
                    } finally {
                        SHEDDING.set(false);
                    }
                }));
        this.client = HttpClient.newBuilder()
                .connectTimeout(limits.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        try {
            this.server = HttpServer.create(new InetSocketAddress(self.host(), self.port()), 0);
        } catch (IOException e) {
            workers.shutdownNow();
            shedder.shutdownNow();
            throw new UncheckedIOException("Cannot listen on " + self, e);
        }
        server.setExecutor(workers);
        server.createContext(PATH, this::handle);
        server.start();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Answer answer = answer(exchange);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            answer.headers()
                    .forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
            byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
            if ("HEAD".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(answer.status(), -1);
                return;
            }
            exchange.sendResponseHeaders(answer.status(), body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** An answer; its body is text of this class's own, or a count, never the request's text. */
    private record Answer(int status, String body, Map<String, String> headers) {
        Answer(int status, String body) {
            this(status, body, Map.of());
        }
    }

    private Answer answer(HttpExchange exchange) {
        if (SHEDDING.get()) {
            return new Answer(503, "busy; ask again", Map.of("Retry-After", "1"));
        }
        if (!"GET".equals(exchange.getRequestMethod())) {
            return new Answer(405, "only GET is allowed", Map.of("Allow", "GET"));
        }
        // The server has parsed the URI (a malformed one is answered 400 before this); getPath decodes it.
        String path = exchange.getRequestURI().getPath();
        if (path == null || path.length() <= PATH.length()) {
            return new Answer(400, "ask GET /counts/{word}, the word percent-encoded");
        }
        String word = path.substring(PATH.length());
        boolean forwarded = exchange.getRequestHeaders().containsKey(FORWARDED);
        Optional<KeyMetadata> owner =
                streams.metadataForKey(WordCount.COUNTS, word, Serdes.String().serializer());
        if (owner.isEmpty()) {
            return new Answer(503, "no instance holds the word yet; ask again");
        }
        HostInfo host = owner.get().activeHost();
        if (host.equals(self)) {
            return local(word);
        }
        if (forwarded) {
            // Sent here by another instance whose view was older, or by a client: this instance does not hold
            // the word, and forwarding again could loop. The client asks again.
            return new Answer(503, "this instance does not hold the word now; ask again");
        }
        if (!memberOfAssignment(host)) {
            return new Answer(503, "the word's owner is not in the current assignment; ask again");
        }
        return forward(host, word);
    }

    private boolean memberOfAssignment(HostInfo host) {
        for (InstanceMetadata instance : streams.allMetadata()) {
            if (instance.host().equals(host) && instance.stores().contains(WordCount.COUNTS)) {
                return true;
            }
        }
        return false;
    }

    private Answer local(String word) {
        try {
            Long count = streams.store(WordCount.COUNTS, QueryableStoreType.<String, Long>keyValueStore())
                    .get(word);
            return count == null ? new Answer(404, "never seen") : new Answer(200, count.toString());
        } catch (StoreUnavailableException e) {
            return new Answer(
                    e.retriable() ? 503 : 500,
                    "the counts are not available here (" + e.reason() + ")" + (e.retriable() ? "; ask again" : ""));
        }
    }

    private Answer forward(HostInfo owner, String word) {
        URI uri;
        try {
            // The multi-argument constructor quotes what a path may not hold; toASCIIString encodes the rest.
            uri = URI.create(
                    new URI("http", null, owner.host(), owner.port(), PATH + word, null, null).toASCIIString());
        } catch (URISyntaxException | IllegalArgumentException e) {
            return new Answer(503, "cannot address the instance holding the word (" + owner + ")");
        }
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(limits.forwardTimeout())
                .header(FORWARDED, "1")
                .GET()
                .build();
        try {
            HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = response.body()) {
                byte[] body = in.readNBytes(MAX_RELAYED_BYTES + 1);
                int status = response.statusCode();
                if (body.length > MAX_RELAYED_BYTES || !(status == 200 || status == 404 || status == 503)) {
                    return new Answer(502, "the instance holding the word (" + owner + ") answered unexpectedly");
                }
                return new Answer(status, new String(body, StandardCharsets.UTF_8));
            }
        } catch (HttpTimeoutException e) {
            return new Answer(503, "the instance holding the word (" + owner + ") did not answer in time");
        } catch (IOException e) {
            return new Answer(503, "the instance holding the word (" + owner + ") did not answer");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(503, "interrupted; ask again");
        }
    }

    private static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        workers.shutdownNow();
        shedder.shutdownNow();
    }
}
