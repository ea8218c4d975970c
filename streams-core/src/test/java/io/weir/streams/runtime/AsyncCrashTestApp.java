package io.weir.streams.runtime;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.StreamsConfig;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Async;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.kafka.ExternalKafkaBroker;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The async operator {@link AsyncCrashTest} kills, in a child JVM under exactly-once: each value {@code v}
 * of the input becomes {@code "scored-" + v}, answered by a service in this JVM after 10 to 100 ms (answers
 * out of order, dozens of calls in flight at any moment), capacity {@value #CAPACITY} per task. Arguments:
 * bootstrap, application id, input, output, state dir.
 */
public final class AsyncCrashTestApp {

    static final int CAPACITY = 40;
    static final String OPERATOR = "score";

    private AsyncCrashTestApp() {}

    public static void main(String[] args) throws InterruptedException {
        ScheduledExecutorService service = Executors.newScheduledThreadPool(2);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(args[2], Consumed.with(Serdes.String(), Serdes.String()))
                .mapValuesAsync(
                        value -> {
                            CompletableFuture<String> answer = new CompletableFuture<>();
                            service.schedule(
                                    () -> answer.complete("scored-" + value),
                                    ThreadLocalRandom.current().nextInt(10, 101),
                                    TimeUnit.MILLISECONDS);
                            return answer;
                        },
                        Async.<String, String>as(OPERATOR).withCapacity(CAPACITY))
                .to(args[3], Produced.with(Serdes.String(), Serdes.String()));
        Map<String, Object> config =
                WindowedCountApp.config(ExternalKafkaBroker.at(args[0]), args[1], Path.of(args[4]));
        config.put(StreamsConfig.PROCESSING_GUARANTEE, StreamsConfig.EXACTLY_ONCE);
        CrashTestApp.runUntilStopped(new WeirStreams(builder.build(), config));
    }
}
