package io.weir.examples;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A local fraud-scoring service over HTTP, standing in for a model server: {@code GET
 * /score?card=C&amountCents=A} answers a risk score from 0 to 99 as text, after a fixed delay (a model's
 * latency), without holding a thread while it waits. The score grows with the amount; each card adds a
 * fixed share. Listens on a free port of the loopback address; owns its threads until closed.
 */
public final class ScoringServer implements AutoCloseable {

    private final HttpServer server;
    private final ScheduledExecutorService delays;
    private final Duration delay;

    private ScoringServer(HttpServer server, ScheduledExecutorService delays, Duration delay) {
        this.server = server;
        this.delays = delays;
        this.delay = delay;
    }

    /** Starts a server answering each request after {@code delay}. */
    public static ScoringServer start(Duration delay) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open the scoring service's port", e);
        }
        ScheduledExecutorService delays =
                Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "scoring-server"));
        ScoringServer scoring = new ScoringServer(server, delays, delay);
        server.createContext("/score", scoring::handle);
        server.setExecutor(delays);
        server.start();
        return scoring;
    }

    /** The score of a payment of {@code amountCents} with {@code card}. */
    public static int score(String card, long amountCents) {
        return (int) Math.min(99, amountCents / 1_000 + Math.floorMod(card.hashCode(), 20));
    }

    /** Where to send requests: {@code http://127.0.0.1:port/score}. */
    public URI uri() {
        return URI.create("http://" + server.getAddress().getHostString() + ":"
                + server.getAddress().getPort() + "/score");
    }

    private void handle(HttpExchange exchange) {
        Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
        String card = query.get("card");
        String amount = query.get("amountCents");
        // The task answers and closes the exchange itself, whatever happens; nobody waits for its future.
        ScheduledFuture<?> unused = delays.schedule(
                () -> {
                    try (exchange) {
                        if (card == null || amount == null || !amount.matches("-?\\d{1,18}")) {
                            respond(exchange, 400, "card and amountCents required");
                        } else {
                            respond(exchange, 200, Integer.toString(score(card, Long.parseLong(amount))));
                        }
                    } catch (IOException e) {
                        // The client went away; nothing to answer.
                    }
                },
                delay.toNanos(),
                TimeUnit.NANOSECONDS);
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> parameters = new HashMap<>();
        if (raw != null) {
            for (String pair : raw.split("&", -1)) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    parameters.put(
                            java.net.URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                            java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        return parameters;
    }

    @Override
    public void close() {
        server.stop(0);
        delays.shutdownNow();
    }
}
