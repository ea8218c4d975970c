package io.weir.benchmarks.failover;

import io.weir.streams.RestoreListener;
import io.weir.streams.StreamsBuilder;
import io.weir.streams.ThreadMetadata;
import io.weir.streams.Topology;
import io.weir.streams.WeirStreams;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.LagInfo;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.StateRestoreListener;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One instance of the failover benchmark's application, in a JVM of its own so that it can be killed:
 * a count per key of its input (a table of up to a million keys), written to its output, under
 * exactly-once, with one standby copy per task, a 10 s session timeout and static membership, in Weir
 * or in Kafka Streams. Prints one status line per second on stdout, {@code STATUS running=<bool>
 * active=<n> standby=<n> standbyLag=<records> restored=<records> rebalances=<n>}, for the benchmark to
 * wait on ({@code rebalances}: how often the instance entered the state {@code REBALANCING}, its start
 * included), and a timestamped {@code EVENT} line when its JVM is up, when it built its topology (before
 * constructing the streams instance: {@code new WeirStreams} or {@code new KafkaStreams}), when it calls
 * {@code start()} and on every change of state; closes cleanly on SIGTERM (a rolling restart), leaving the
 * group so that its tasks move to their standby copies at once instead of waiting for it to come back, and
 * not at all on SIGKILL.
 *
 * <p>Arguments: {@code weir|kafka-streams bootstrap applicationId stateDir instanceName input output}.
 */
public final class FailoverInstance {

    static final int SESSION_TIMEOUT_MS = 10_000;
    static final int HEARTBEAT_INTERVAL_MS = 1_000;

    private FailoverInstance() {}

    /** What a running instance reports. */
    private interface Running extends AutoCloseable {
        String status();

        @Override
        void close();
    }

    public static void main(String[] args) throws InterruptedException {
        event("jvm started "
                + (System.currentTimeMillis()
                        - java.lang.management.ManagementFactory.getRuntimeMXBean()
                                .getStartTime())
                + " ms ago");
        String engine = args[0];
        String bootstrap = args[1];
        String app = args[2];
        String stateDir = args[3];
        String instance = args[4];
        String input = args[5];
        String output = args[6];
        AtomicLong restored = new AtomicLong();
        AtomicLong rebalances = new AtomicLong();
        Running running = engine.equals("weir")
                ? weir(bootstrap, app, stateDir, input, output, restored, rebalances)
                : kafkaStreams(bootstrap, app, stateDir, instance, input, output, restored, rebalances);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            running.close();
            stopped.countDown();
        }));
        while (!stopped.await(1, java.util.concurrent.TimeUnit.SECONDS)) {
            System.out.println(
                    "STATUS " + running.status() + " restored=" + restored.get() + " rebalances=" + rebalances.get());
            System.out.flush();
        }
    }

    /** A timestamped line for the instance's log (the benchmark copies every line but the status). */
    private static void event(String what) {
        System.out.println("EVENT " + java.time.Instant.now() + " " + what);
        System.out.flush();
    }

    private static Running weir(
            String bootstrap,
            String app,
            String stateDir,
            String input,
            String output,
            AtomicLong restored,
            AtomicLong rebalances) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.as("counts"))
                .toStream()
                .to(output, Produced.with(Serdes.String(), Serdes.Long()));
        Map<String, Object> config = new HashMap<>();
        config.put(io.weir.streams.StreamsConfig.APPLICATION_ID, app);
        config.put(io.weir.streams.StreamsConfig.BOOTSTRAP_SERVERS, bootstrap);
        config.put(io.weir.streams.StreamsConfig.STATE_DIR, stateDir);
        config.put(io.weir.streams.StreamsConfig.NUM_STANDBY_REPLICAS, 1);
        config.put(io.weir.streams.StreamsConfig.REPLICATION_FACTOR, (short) 1);
        config.put("consumer." + ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, SESSION_TIMEOUT_MS);
        config.put("consumer." + ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, HEARTBEAT_INTERVAL_MS);
        Topology topology = builder.build();
        event("new WeirStreams");
        WeirStreams streams = new WeirStreams(topology, config);
        streams.setRestoreListener(new RestoreListener() {
            @Override
            public void onBatchRestored(TopicPartition changelog, String store, long position, long count) {
                restored.addAndGet(count);
            }
        });
        streams.setStateListener((now, before) -> {
            if (now == WeirStreams.State.REBALANCING) {
                rebalances.incrementAndGet();
            }
            event("state " + now);
        });
        event("start()");
        streams.start();
        return new Running() {
            @Override
            public String status() {
                int active = 0;
                int standby = 0;
                for (ThreadMetadata t : streams.localThreads()) {
                    active += t.activeTasks().size();
                    standby += t.standbyTasks().size();
                }
                return "running=" + (streams.state() == WeirStreams.State.RUNNING) + " active=" + active + " standby="
                        + standby + " standbyLag=" + streams.metrics().getOrDefault("standby/lag-records", 0L);
            }

            @Override
            public void close() {
                streams.close(io.weir.streams.CloseOptions.within(Duration.ofSeconds(60))
                        .withLeaveGroup(true));
            }
        };
    }

    private static Running kafkaStreams(
            String bootstrap,
            String app,
            String stateDir,
            String instance,
            String input,
            String output,
            AtomicLong restored,
            AtomicLong rebalances) {
        org.apache.kafka.streams.StreamsBuilder builder = new org.apache.kafka.streams.StreamsBuilder();
        builder.stream(
                        input,
                        org.apache.kafka.streams.kstream.Consumed.with(
                                org.apache.kafka.common.serialization.Serdes.String(),
                                org.apache.kafka.common.serialization.Serdes.String()))
                .groupByKey()
                .count(org.apache.kafka.streams.kstream.Materialized.as("counts"))
                .toStream()
                .to(
                        output,
                        org.apache.kafka.streams.kstream.Produced.with(
                                org.apache.kafka.common.serialization.Serdes.String(),
                                org.apache.kafka.common.serialization.Serdes.Long()));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, app);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        props.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, 1);
        // Its smallest allowed value (the default is 10 minutes): a warm-up moves its task at the first probe
        // after it caught up, and the benchmark waits for that.
        props.put(StreamsConfig.PROBING_REBALANCE_INTERVAL_MS_CONFIG, 60_000L);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        props.put(
                StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG,
                org.apache.kafka.common.serialization.Serdes.String().getClass());
        props.put(
                StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG,
                org.apache.kafka.common.serialization.Serdes.String().getClass());
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, SESSION_TIMEOUT_MS);
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, HEARTBEAT_INTERVAL_MS);
        // The same static membership Weir has by default: a restart within the session moves nothing.
        props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, app + "-" + instance);
        org.apache.kafka.streams.Topology topology = builder.build();
        event("new KafkaStreams");
        KafkaStreams streams = new KafkaStreams(topology, props);
        streams.setGlobalStateRestoreListener(new StateRestoreListener() {
            @Override
            public void onRestoreStart(TopicPartition partition, String store, long start, long end) {}

            @Override
            public void onBatchRestored(TopicPartition partition, String store, long end, long count) {
                restored.addAndGet(count);
            }

            @Override
            public void onRestoreEnd(TopicPartition partition, String store, long total) {}
        });
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.REBALANCING) {
                rebalances.incrementAndGet();
            }
            event("state " + now);
        });
        event("start()");
        streams.start();
        return new Running() {
            @Override
            public String status() {
                int active = 0;
                int standby = 0;
                for (org.apache.kafka.streams.ThreadMetadata t : streams.metadataForLocalThreads()) {
                    active += t.activeTasks().size();
                    standby += t.standbyTasks().size();
                }
                long lag = 0;
                try {
                    for (Map<Integer, LagInfo> partitions :
                            streams.allLocalStorePartitionLags().values()) {
                        for (LagInfo info : partitions.values()) {
                            lag += info.offsetLag();
                        }
                    }
                } catch (RuntimeException e) {
                    lag = -1;
                }
                return "running=" + (streams.state() == KafkaStreams.State.RUNNING) + " active=" + active + " standby="
                        + standby + " standbyLag=" + lag;
            }

            @Override
            public void close() {
                streams.close(org.apache.kafka.streams.CloseOptions.groupMembershipOperation(
                                org.apache.kafka.streams.CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                        .withTimeout(Duration.ofSeconds(60)));
            }
        };
    }
}
