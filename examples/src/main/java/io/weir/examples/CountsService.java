package io.weir.examples;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.weir.streams.HostInfo;
import io.weir.streams.KeyMetadata;
import io.weir.streams.WeirStreams;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.QueryableStoreType;
import io.weir.streams.state.StoreUnavailableException;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The word counts of {@link WordCount} served over HTTP by every instance, with the JDK's {@link
 * HttpServer} and no framework: {@code GET /counts/{word}} answers {@code 200} and the count, {@code
 * 404} for a word never seen, {@code 503} while the answer is not available (a rebalance, a restore;
 * ask again). Any instance can be asked: one that does not hold the word asks the instance that does
 * ({@link WeirStreams#metadataForKey}), once, and relays its answer. Each instance listens on the
 * {@code application.server} it gave Weir. Owns its server; {@link #close()} stops it.
 */
public final class CountsService implements AutoCloseable {

    private static final String PATH = "/counts/";
    private static final String FORWARDED = "X-Weir-Forwarded";

    private final WeirStreams streams;
    private final HostInfo self;
    private final HttpServer server;

    /** Starts serving on {@code self}'s port; {@code streams} must have been given {@code self} as its application.server. */
    public CountsService(WeirStreams streams, HostInfo self) {
        this.streams = streams;
        this.self = self;
        try {
            this.server = HttpServer.create(new InetSocketAddress(self.host(), self.port()), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot listen on " + self, e);
        }
        server.createContext(PATH, this::handle);
        server.start();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String word = URLDecoder.decode(
                    exchange.getRequestURI().getRawPath().substring(PATH.length()), StandardCharsets.UTF_8);
            boolean forwarded = exchange.getRequestHeaders().containsKey(FORWARDED);
            Answer answer = answer(word, forwarded);
            byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(answer.status(), body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private record Answer(int status, String body) {}

    private Answer answer(String word, boolean forwarded) {
        Optional<KeyMetadata> owner =
                streams.metadataForKey(WordCount.COUNTS, word, Serdes.String().serializer());
        if (owner.isEmpty()) {
            return new Answer(503, "no instance holds '" + word + "' yet; ask again");
        }
        if (!owner.get().activeHost().equals(self)) {
            // A forwarded request is answered here, whatever this instance's view: no forwarding loops.
            return forwarded ? local(word) : forward(owner.get().activeHost(), word);
        }
        return local(word);
    }

    private Answer local(String word) {
        try {
            Long count = streams.store(WordCount.COUNTS, QueryableStoreType.<String, Long>keyValueStore())
                    .get(word);
            return count == null ? new Answer(404, "'" + word + "' was never seen") : new Answer(200, count.toString());
        } catch (StoreUnavailableException e) {
            return new Answer(e.retriable() ? 503 : 500, String.valueOf(e.getMessage()));
        }
    }

    private Answer forward(HostInfo owner, String word) {
        try {
            HttpURLConnection connection = (HttpURLConnection)
                    URI.create("http://" + owner + PATH + URLEncoder.encode(word, StandardCharsets.UTF_8))
                            .toURL()
                            .openConnection();
            try {
                connection.setConnectTimeout(2_000);
                connection.setReadTimeout(5_000);
                connection.setRequestProperty(FORWARDED, self.toString());
                int status = connection.getResponseCode();
                try (InputStream body = status < 400 ? connection.getInputStream() : connection.getErrorStream()) {
                    return new Answer(
                            status, body == null ? "" : new String(body.readAllBytes(), StandardCharsets.UTF_8));
                }
            } finally {
                connection.disconnect();
            }
        } catch (IOException e) {
            return new Answer(503, "the instance holding '" + word + "' (" + owner + ") did not answer: " + e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
