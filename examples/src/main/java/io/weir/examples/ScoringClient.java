package io.weir.examples;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Asks the scoring service ({@link ScoringServer}) for a payment's risk score without blocking: the JDK's
 * asynchronous HTTP client, its answers completed on a small pool of this client's own. A non-2xx answer or
 * a body that is no number fails the stage (the async operator then retries or hands it to the error
 * handler). Thread-safe.
 */
public final class ScoringClient implements AutoCloseable {

    private final URI service;
    private final ExecutorService answers = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "scoring-client");
        t.setDaemon(true);
        return t;
    });
    private final HttpClient http;

    public ScoringClient(URI service) {
        this.service = service;
        this.http = HttpClient.newBuilder()
                .executor(answers)
                .connectTimeout(Duration.ofSeconds(2))
                .build();
    }

    /** The risk score of {@code payment}, 0 to 99. */
    public CompletionStage<Integer> score(Payment payment) {
        URI uri = URI.create(service + "?card=" + URLEncoder.encode(payment.card(), StandardCharsets.UTF_8)
                + "&amountCents=" + payment.amountCents());
        return http.sendAsync(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString())
                .thenApply(response -> {
                    if (response.statusCode() / 100 != 2) {
                        throw new IllegalStateException(
                                "The scoring service answered " + response.statusCode() + " for " + uri);
                    }
                    return Integer.parseInt(response.body().trim());
                });
    }

    /**
     * Stops the pool answers complete on. (Java 17's HTTP client has no {@code close()}: its selector thread
     * ends once the client is no longer referenced.)
     */
    @Override
    public void close() {
        answers.shutdownNow();
    }
}
