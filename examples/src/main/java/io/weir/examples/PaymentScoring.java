package io.weir.examples;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Async;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.JsonSerde;
import io.weir.streams.serde.Serdes;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The demo's payments, each scored by a remote fraud model: an asynchronous call per payment
 * ({@code mapValuesAsync}), so the stream thread keeps reading while up to {@link #CAPACITY} calls per task
 * are in flight.
 *
 * <ul>
 *   <li>Input: {@value FraudAlerts#PAYMENTS}, {@link Payment}s keyed by card (the fraud-alerts demo's
 *       input).</li>
 *   <li>Each payment's score comes from the scoring service ({@link ScoringClient}); the payments of one card
 *       leave in the order they were paid, other cards' may overtake a slow answer. A call that takes over
 *       {@link #TIMEOUT} or fails is tried again up to {@link #RETRIES} times, 100 ms later, then 200 ms,
 *       ...; one that fails every try goes to the processing-error handler (by default the application
 *       stops, so nothing is skipped silently).</li>
 *   <li>Output: {@value #SCORED}, {@link ScoredPayment}s keyed by card, each payment exactly once though a
 *       call may be repeated after a crash.</li>
 * </ul>
 */
public final class PaymentScoring {

    public static final String SCORED = "payments-scored";
    /** The operator's name, and its store of the payments whose calls are in flight at a commit. */
    public static final String OPERATOR = "fraud-score";

    public static final int CAPACITY = 200;
    public static final Duration TIMEOUT = Duration.ofSeconds(2);
    public static final int RETRIES = 3;

    private PaymentScoring() {}

    /** The topology, calling {@code score} for each payment. */
    public static Topology topology(Function<Payment, CompletionStage<Integer>> score) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(FraudAlerts.PAYMENTS, Consumed.with(Serdes.String(), JsonSerde.of(Payment.class)))
                .filter((card, payment) -> payment != null) // a null on the payments topic is no payment
                .mapValuesAsync(
                        (Payment payment) -> score.apply(payment).thenApply(s -> new ScoredPayment(payment, s)),
                        Async.<String, Payment>as(OPERATOR)
                                .withCapacity(CAPACITY)
                                .withTimeout(TIMEOUT)
                                .withRetries(RETRIES, Duration.ofMillis(100), Duration.ofSeconds(1))
                                .withSerdes(Serdes.String(), JsonSerde.of(Payment.class)))
                .to(SCORED, Produced.with(Serdes.String(), JsonSerde.of(ScoredPayment.class)));
        return builder.build();
    }
}
