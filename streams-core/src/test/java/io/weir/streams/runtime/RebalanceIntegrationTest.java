package io.weir.streams.runtime;

import io.weir.streams.CloseOptions;
import io.weir.streams.StreamsBuilder;
import io.weir.streams.ThreadMetadata;
import io.weir.streams.Topology;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.KeyedProcessor;
import io.weir.streams.dsl.KeyedProcessorContext;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import io.weir.streams.state.KeyValueStore;
import io.weir.streams.test.kafka.KafkaBroker;
import io.weir.streams.test.kafka.KafkaBrokerExtension;
import io.weir.streams.time.WatermarkStrategy;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rebalances between instances on a real broker: cooperative (tasks that stay keep running), static
 * membership (a restart within the session timeout moves nothing), and leaving on close.
 */
@ExtendWith(KafkaBrokerExtension.class)
class RebalanceIntegrationTest {

    private static final int PARTITIONS = 4;

    /**
     * One instance of a keyed counting processor, watched: how many times its tasks were opened (one
     * processor per task), and how many records it processed while its instance was rebalancing.
     */
    private static final class Instance implements AutoCloseable {
        final AtomicInteger opened = new AtomicInteger();
        final AtomicLong processedWhileRebalancing = new AtomicLong();
        final List<WeirStreams.State> states = new CopyOnWriteArrayList<>();
        final WeirStreams streams;

        Instance(KafkaBroker broker, String app, Path dir) {
            AtomicReference<WeirStreams> self = new AtomicReference<>();
            StreamsBuilder builder = new StreamsBuilder();
            builder.stream(
                            app + "-in",
                            Consumed.with(Serdes.String(), Serdes.String())
                                    .withWatermarks(WatermarkStrategy.forMonotonousTimestamps()))
                    .groupByKey()
                    .process(
                            () -> new KeyedProcessor<String, String, String, String>() {
                                @Override
                                public void init(KeyedProcessorContext<String, String, String> context) {
                                    opened.incrementAndGet();
                                }

                                @Override
                                public void process(
                                        String key, String value, KeyedProcessorContext<String, String, String> ctx) {
                                    KeyValueStore<String, String> counts = ctx.store("counts");
                                    String before = counts.get(key);
                                    String after = String.valueOf(before == null ? 1 : Long.parseLong(before) + 1);
                                    counts.put(key, after);
                                    ctx.forward(key, after);
                                    if (self.get().state() == WeirStreams.State.REBALANCING) {
                                        processedWhileRebalancing.incrementAndGet();
                                    }
                                }
                            },
                            Materialized.<String, String>as("counts")
                                    .withKeySerde(Serdes.String())
                                    .withValueSerde(Serdes.String()))
                    .to(app + "-out", Produced.with(Serdes.String(), Serdes.String()));
            Topology topology = builder.build();
            streams = new WeirStreams(topology, WindowedCountApp.config(broker, app, dir));
            self.set(streams);
            streams.setStateListener((next, previous) -> states.add(next));
        }

        Instance start() {
            streams.start();
            return this;
        }

        Set<String> tasks() {
            Set<String> tasks = new TreeSet<>();
            for (ThreadMetadata thread : streams.localThreads()) {
                tasks.addAll(thread.activeTasks());
            }
            return tasks;
        }

        boolean running() {
            return streams.state() == WeirStreams.State.RUNNING;
        }

        @Override
        public void close() {
            streams.close(Duration.ofSeconds(30));
        }
    }

    /** Writes a record to every partition every few milliseconds until closed. */
    private static final class SteadyInput implements AutoCloseable {
        private final AtomicBoolean stop = new AtomicBoolean();
        private final Thread thread;
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final AtomicLong sent = new AtomicLong();

        SteadyInput(KafkaBroker broker, String topic) {
            thread = new Thread(
                    () -> {
                        long base = BaseTime.recentPast();
                        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                                new StringSerializer(),
                                new StringSerializer())) {
                            for (long i = 0; !stop.get(); i++) {
                                for (int p = 0; p < PARTITIONS; p++) {
                                    producer.send(
                                            new ProducerRecord<>(topic, p, base + i, "p" + p + "-k" + i % 10, "v"));
                                }
                                producer.flush();
                                sent.addAndGet(PARTITIONS);
                            }
                        } catch (RuntimeException e) {
                            failure.set(e);
                        }
                    },
                    "steady-input-" + topic);
            thread.start();
        }

        /** Records written so far, each flushed. */
        long sent() {
            return sent.get();
        }

        @Override
        public void close() {
            stop.set(true);
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while stopping the input", e);
            }
            if (failure.get() != null) {
                throw new AssertionError("producing the input failed", failure.get());
            }
        }
    }

    private static void topics(KafkaBroker broker, String app) {
        broker.createTopic(app + "-in", PARTITIONS);
        broker.createTopic(app + "-out", PARTITIONS);
    }

    private static List<MemberDescription> members(KafkaBroker broker, String group)
            throws ExecutionException, InterruptedException {
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            return new ArrayList<>(admin.describeConsumerGroups(List.of(group))
                    .describedGroups()
                    .get(group)
                    .get()
                    .members());
        }
    }

    private static void awaitSplit(Instance a, Instance b) {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> a.running()
                        && b.running()
                        && a.tasks().size() == PARTITIONS / 2
                        && b.tasks().size() == PARTITIONS / 2);
    }

    @Test
    void tasksThatStayKeepRunningWhileTheGroupRebalances(KafkaBroker broker, @TempDir Path first, @TempDir Path second)
            throws Exception {
        topics(broker, "coop");
        try (SteadyInput input = new SteadyInput(broker, "coop-in");
                Instance a = new Instance(broker, "coop", first).start()) {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> a.running() && a.tasks().size() == PARTITIONS);
            assertEquals(PARTITIONS, a.opened.get());
            try (Instance b = new Instance(broker, "coop", second).start()) {
                awaitSplit(a, b);
                assertEquals(
                        PARTITIONS,
                        a.opened.get(),
                        "the tasks the first instance kept were never closed and opened again");
                assertTrue(
                        a.processedWhileRebalancing.get() > 0,
                        "the first instance processed records while the group rebalanced");
                assertEquals(PARTITIONS / 2, b.opened.get());
                assertTrue(input.sent() > 0);
            }
        }
    }

    @Test
    void aStaticMemberRestartingWithinItsSessionTakesItsTasksBackWithoutARebalance(
            KafkaBroker broker, @TempDir Path first, @TempDir Path second) throws Exception {
        topics(broker, "static");
        try (SteadyInput input = new SteadyInput(broker, "static-in");
                Instance a = new Instance(broker, "static", first).start()) {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> a.running() && a.tasks().size() == PARTITIONS);
            Set<String> tasksOfB;
            try (Instance b = new Instance(broker, "static", second).start()) {
                awaitSplit(a, b);
                tasksOfB = b.tasks();
            }
            assertEquals(
                    2,
                    members(broker, "static").size(),
                    "a static member that closed without leaving keeps its place in the group");
            int statesOfA = a.states.size();
            int openedOnA = a.opened.get();
            try (Instance b = new Instance(broker, "static", second).start()) {
                await().atMost(Duration.ofSeconds(30)).until(b::running);
                assertEquals(tasksOfB, b.tasks(), "the restarted instance has its tasks back");
                assertEquals(openedOnA, a.opened.get(), "nothing moved to the instance that stayed");
                assertEquals(
                        List.of(),
                        a.states.subList(statesOfA, a.states.size()),
                        "the instance that stayed never rebalanced");
                assertTrue(input.sent() > 0);
            }
        }
    }

    @Test
    void anInstanceThatLeavesOnCloseHandsItsTasksOverAtOnce(
            KafkaBroker broker, @TempDir Path first, @TempDir Path second) throws Exception {
        topics(broker, "leave");
        try (Instance a = new Instance(broker, "leave", first).start()) {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> a.running() && a.tasks().size() == PARTITIONS);
            Instance b = new Instance(broker, "leave", second).start();
            awaitSplit(a, b);
            assertTrue(
                    b.streams.close(CloseOptions.within(Duration.ofSeconds(30)).withLeaveGroup(true)));
            assertEquals(1, members(broker, "leave").size(), "the closed instance left the group");
            // Well within the 10 s session timeout the test configuration sets.
            await().atMost(Duration.ofSeconds(8))
                    .until(() -> a.running() && a.tasks().size() == PARTITIONS);
        }
    }
}
