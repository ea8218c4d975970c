package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Async;
import io.weir.streams.dsl.AsyncKeyedProcessor;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.KeyValueStore;
import io.weir.streams.test.kafka.ExternalKafkaBroker;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The async operators {@link AsyncCrashTest} kills, in a child JVM under exactly-once: each value {@code v}
 * of the input becomes {@code "scored-" + v}, answered by a service in this JVM after 10 to 100 ms (answers
 * out of order, dozens of calls in flight at any moment), capacity {@value #CAPACITY} per task, through
 * {@code mapValuesAsync} to the output topic, and through {@code processAsync}, which counts each key's
 * answers in its store, as {@code "<count>:scored-<v>"} to the output topic + {@value #COUNTED}. Arguments:
 * bootstrap, application id, input, output, state dir.
 */
public final class AsyncCrashTestApp {

    static final int CAPACITY = 40;
    static final String OPERATOR = "score";
    static final String COUNTER = "count";
    /** The suffix of the counting processor's output topic. */
    static final String COUNTED = "-counted";

    private AsyncCrashTestApp() {}

    public static void main(String[] args) throws InterruptedException {
        ScheduledExecutorService service = Executors.newScheduledThreadPool(2);
        StreamsBuilder builder = new StreamsBuilder();
        EventStream<String, String> input = builder.stream(args[2], Consumed.with(Serdes.String(), Serdes.String()));
        input.mapValuesAsync(
                        value -> score(service, value),
                        Async.<String, String>as(OPERATOR).withCapacity(CAPACITY))
                .to(args[3], Produced.with(Serdes.String(), Serdes.String()));
        input.groupByKey()
                .processAsync(
                        () -> new Counting(service),
                        Async.<String, String>as(COUNTER).withCapacity(CAPACITY),
                        Materialized.<String, Long>as("counts")
                                .withKeySerde(Serdes.String())
                                .withValueSerde(Serdes.Long()))
                .to(args[3] + COUNTED, Produced.with(Serdes.String(), Serdes.String()));
        Map<String, Object> config =
                WindowedCountApp.config(ExternalKafkaBroker.at(args[0]), args[1], Path.of(args[4]));
        config.put(StreamsConfig.PROCESSING_GUARANTEE, StreamsConfig.EXACTLY_ONCE);
        CrashTestApp.runUntilStopped(new WeirStreams(builder.build(), config));
    }

    /** The remote call: {@code "scored-" + value}, 10 to 100 ms later, on the service's threads. */
    private static CompletableFuture<String> score(ScheduledExecutorService service, String value) {
        CompletableFuture<String> answer = new CompletableFuture<>();
        service.schedule(
                () -> answer.complete("scored-" + value),
                ThreadLocalRandom.current().nextInt(10, 101),
                TimeUnit.MILLISECONDS);
        return answer;
    }

    /** Counts each key's answers in its store and forwards {@code "<count>:<answer>"}. */
    private static final class Counting implements AsyncKeyedProcessor<String, String, String, String, String> {
        private final ScheduledExecutorService service;

        Counting(ScheduledExecutorService service) {
            this.service = service;
        }

        @Override
        public CompletionStage<String> call(String key, String value) {
            return score(service, value);
        }

        @Override
        public void process(
                String key, String value, @Nullable String answer, KeyedProcessorContext<String, String, String> ctx) {
            KeyValueStore<String, Long> counts = ctx.store("counts");
            Long before = counts.get(key);
            long count = before == null ? 1 : before + 1;
            counts.put(key, count);
            ctx.forward(key, count + ":" + answer);
        }
    }
}
