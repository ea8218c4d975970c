package io.weir.streams;

import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Produced;
import io.weir.streams.internals.ConfigReference;
import io.weir.streams.internals.config.ForeignSettings;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StreamsConfigTest {

    private static final Path REFERENCE = Path.of("..", "docs", "reference", "configuration.md");

    private static Map<String, Object> minimal() {
        Map<String, Object> m = new HashMap<>();
        m.put(StreamsConfig.APPLICATION_ID, "app");
        m.put(StreamsConfig.BOOTSTRAP_SERVERS, "localhost:9092");
        return m;
    }

    @Test
    void defaultsFollowTheGuarantee() {
        StreamsConfig eos = new StreamsConfig(minimal());
        assertTrue(eos.exactlyOnce());
        assertEquals(100, eos.commitIntervalMs());
        Map<String, Object> alos = minimal();
        alos.put(StreamsConfig.PROCESSING_GUARANTEE, StreamsConfig.AT_LEAST_ONCE);
        assertEquals(30_000, new StreamsConfig(alos).commitIntervalMs());
    }

    @Test
    void theCommitIntervalBehindDefaultsToTheCommitIntervalAndMayNotBeShorter() {
        assertEquals(100, new StreamsConfig(minimal()).commitIntervalBehindMs());
        Map<String, Object> alos = minimal();
        alos.put(StreamsConfig.PROCESSING_GUARANTEE, StreamsConfig.AT_LEAST_ONCE);
        assertEquals(30_000, new StreamsConfig(alos).commitIntervalBehindMs());
        Map<String, Object> behind = minimal();
        behind.put(StreamsConfig.COMMIT_INTERVAL_BEHIND_MS, 1_000);
        assertEquals(1_000, new StreamsConfig(behind).commitIntervalBehindMs());
        Map<String, Object> shorter = minimal();
        shorter.put(StreamsConfig.COMMIT_INTERVAL_MS, 500);
        shorter.put(StreamsConfig.COMMIT_INTERVAL_BEHIND_MS, 200);
        ConfigException e = assertThrows(ConfigException.class, () -> new StreamsConfig(shorter));
        assertTrue(e.getMessage().contains(StreamsConfig.COMMIT_INTERVAL_BEHIND_MS), e.getMessage());
        assertTrue(e.getMessage().contains("500"), e.getMessage());
    }

    @Test
    void invalidAndMissingSettingsNameTheirKey() {
        Map<String, Object> bad = minimal();
        bad.put(StreamsConfig.PROCESSING_GUARANTEE, "exactly_twice");
        ConfigException e = assertThrows(ConfigException.class, () -> new StreamsConfig(bad));
        assertTrue(e.getMessage().contains(StreamsConfig.PROCESSING_GUARANTEE), e.getMessage());
        Map<String, Object> none = minimal();
        none.remove(StreamsConfig.APPLICATION_ID);
        assertTrue(assertThrows(ConfigException.class, () -> new StreamsConfig(none))
                .getMessage()
                .contains(StreamsConfig.APPLICATION_ID));
        Map<String, Object> threads = minimal();
        threads.put(StreamsConfig.NUM_STREAM_THREADS, 0);
        assertTrue(assertThrows(ConfigException.class, () -> new StreamsConfig(threads))
                .getMessage()
                .contains(StreamsConfig.NUM_STREAM_THREADS));
        Map<String, Object> endpoint = minimal();
        endpoint.put(StreamsConfig.APPLICATION_SERVER, "localhost");
        assertTrue(assertThrows(ConfigException.class, () -> new StreamsConfig(endpoint))
                .getMessage()
                .contains(StreamsConfig.APPLICATION_SERVER));
        endpoint.put(StreamsConfig.APPLICATION_SERVER, "localhost:http");
        assertTrue(assertThrows(ConfigException.class, () -> new StreamsConfig(endpoint))
                .getMessage()
                .contains("numeric port"));
    }

    @Test
    void standbyReplicasAreReadAndANegativeCountIsRefused() {
        assertEquals(0, new StreamsConfig(minimal()).standbyReplicas());
        Map<String, Object> two = minimal();
        two.put(StreamsConfig.NUM_STANDBY_REPLICAS, 2);
        assertEquals(2, new StreamsConfig(two).standbyReplicas());
        two.put(StreamsConfig.NUM_STANDBY_REPLICAS, -1);
        ConfigException e = assertThrows(ConfigException.class, () -> new StreamsConfig(two));
        assertTrue(e.getMessage().contains(StreamsConfig.NUM_STANDBY_REPLICAS), e.getMessage());
    }

    @Test
    void warmupSettingsHaveKafkaStreamsDefaultsAndOutOfRangeValuesAreRefused() {
        StreamsConfig defaults = new StreamsConfig(minimal());
        assertEquals(2, defaults.maxWarmupReplicas());
        assertEquals(10_000L, defaults.acceptableRecoveryLag());
        assertEquals(600_000L, defaults.probingRebalanceIntervalMs());
        Map<String, Object> set = minimal();
        set.put(StreamsConfig.MAX_WARMUP_REPLICAS, 4);
        set.put(StreamsConfig.ACCEPTABLE_RECOVERY_LAG, 0L);
        set.put(StreamsConfig.PROBING_REBALANCE_INTERVAL_MS, 30_000L);
        StreamsConfig read = new StreamsConfig(set);
        assertEquals(4, read.maxWarmupReplicas());
        assertEquals(0L, read.acceptableRecoveryLag());
        assertEquals(30_000L, read.probingRebalanceIntervalMs());
        for (Map.Entry<String, Object> bad : Map.<String, Object>of(
                        StreamsConfig.MAX_WARMUP_REPLICAS, 0,
                        StreamsConfig.ACCEPTABLE_RECOVERY_LAG, -1L,
                        StreamsConfig.PROBING_REBALANCE_INTERVAL_MS, 10L)
                .entrySet()) {
            Map<String, Object> config = minimal();
            config.put(bad.getKey(), bad.getValue());
            ConfigException e = assertThrows(ConfigException.class, () -> new StreamsConfig(config));
            assertTrue(e.getMessage().contains(bad.getKey()), e.getMessage());
        }
    }

    @Test
    void membershipIsStaticByDefaultPerProcessAndAThreadLevelInstanceIdIsRefused() {
        StreamsConfig defaults = new StreamsConfig(minimal());
        assertEquals(
                Optional.of(defaults.applicationId() + "-p1"),
                defaults.groupInstanceId("p1"),
                "static membership, named after the process id kept in the state directory");
        Map<String, Object> dynamic = minimal();
        dynamic.put(StreamsConfig.GROUP_INSTANCE_ID, "");
        assertEquals(Optional.empty(), new StreamsConfig(dynamic).groupInstanceId("p1"));
        Map<String, Object> named = minimal();
        named.put(StreamsConfig.GROUP_INSTANCE_ID, "pod-7");
        assertEquals(Optional.of("pod-7"), new StreamsConfig(named).groupInstanceId("p1"));
        Map<String, Object> perConsumer = minimal();
        perConsumer.put("consumer.group.instance.id", "pod-7");
        ConfigException e = assertThrows(ConfigException.class, () -> new StreamsConfig(perConsumer));
        assertTrue(e.getMessage().contains("consumer.group.instance.id"), e.getMessage());
        assertTrue(e.getMessage().contains("set group.instance.id instead"), e.getMessage());
    }

    @Test
    void clientSettingsPassThroughByPrefixAndSecurityKeysGoToEveryClient() {
        Map<String, Object> m = minimal();
        m.put("consumer.max.poll.records", 50);
        m.put("producer.linger.ms", 20);
        m.put("security.protocol", "SASL_SSL");
        m.put("sasl.jaas.config", "secret");
        StreamsConfig config = new StreamsConfig(m);
        Map<String, Object> consumer = config.clientConfig(StreamsConfig.CONSUMER_PREFIX);
        assertEquals(50, consumer.get("max.poll.records"));
        assertFalse(consumer.containsKey("linger.ms"));
        assertEquals("SASL_SSL", consumer.get("security.protocol"));
        assertEquals(
                "secret", config.clientConfig(StreamsConfig.PRODUCER_PREFIX).get("sasl.jaas.config"));
        assertEquals(20, config.clientConfig(StreamsConfig.PRODUCER_PREFIX).get("linger.ms"));
    }

    /**
     * Every setting of the Kafka Streams release the benchmarks compare with is either read by Weir
     * under the same name (its own setting, or a client setting passed through) or refused naming the
     * key and what to do instead: none is accepted and ignored.
     */
    @Test
    void everyKafkaStreamsSettingIsImplementedOrRefused() {
        Set<String> weir = StreamsConfig.configDef().names();
        Map<String, String> refused = ForeignSettings.refused();
        for (String key :
                new TreeSet<>(org.apache.kafka.streams.StreamsConfig.configDef().names())) {
            Map<String, Object> m = minimal();
            m.put(key, "not-a-value-weir-accepts");
            if (weir.contains(key)) {
                continue;
            }
            if (!refused.containsKey(key)) {
                // A client setting: passed to every client as it is.
                assertEquals(
                        "not-a-value-weir-accepts",
                        new StreamsConfig(m).clientConfig("consumer.").get(key),
                        key);
                continue;
            }
            ConfigException e = assertThrows(ConfigException.class, () -> new StreamsConfig(m), key);
            assertTrue(e.getMessage().contains(key) && e.getMessage().contains("does not implement"), e.getMessage());
        }
    }

    @Test
    void theMemorySettingsAreReadAndTheOldPerTaskCacheSettingNamesItsReplacement() {
        StreamsConfig defaults = new StreamsConfig(minimal());
        assertEquals(64L * 1024 * 1024, defaults.cacheMaxBytes());
        assertTrue(defaults.rocksDbMemoryMaxBytes().isEmpty(), "no shared bound unless asked");
        assertTrue(defaults.rocksDbConfigSetter().isEmpty());

        Map<String, Object> m = minimal();
        m.put(StreamsConfig.ROCKSDB_MEMORY_MAX_BYTES, "268435456");
        m.put(StreamsConfig.ROCKSDB_MEMORY_WRITE_BUFFER_RATIO, 0.25);
        m.put(StreamsConfig.ROCKSDB_CONFIG_SETTER, FewerWriteBuffers.class.getName());
        StreamsConfig bounded = new StreamsConfig(m);
        assertEquals(268_435_456L, bounded.rocksDbMemoryMaxBytes().getAsLong());
        assertEquals(0.25, bounded.rocksDbWriteBufferRatio());
        assertTrue(bounded.rocksDbConfigSetter().orElseThrow() instanceof FewerWriteBuffers);

        Map<String, Object> old = minimal();
        old.put("cache.max.bytes.per.task", 1024);
        ConfigException e = assertThrows(ConfigException.class, () -> new StreamsConfig(old));
        assertTrue(e.getMessage().contains("statestore.cache.max.bytes"), e.getMessage());
        Map<String, Object> ratio = minimal();
        ratio.put(StreamsConfig.ROCKSDB_MEMORY_WRITE_BUFFER_RATIO, 1.0);
        assertThrows(ConfigException.class, () -> new StreamsConfig(ratio));
    }

    @Test
    void aConfigSetterThatIsNotWeirsIsRefusedSayingWhy() {
        Map<String, Object> m = minimal();
        m.put(StreamsConfig.ROCKSDB_CONFIG_SETTER, KafkaStreamsSetter.class);
        ConfigException e = assertThrows(ConfigException.class, () -> new StreamsConfig(m).rocksDbConfigSetter());
        assertTrue(
                e.getMessage().contains("RocksDbConfigSetter") && e.getMessage().contains("Kafka Streams"),
                e.getMessage());
        m.put(StreamsConfig.ROCKSDB_CONFIG_SETTER, "no.such.Setter");
        assertThrows(ConfigException.class, () -> new StreamsConfig(m));
    }

    /** A Weir setter, made by its public no-argument constructor. */
    public static final class FewerWriteBuffers implements io.weir.streams.state.RocksDbConfigSetter {
        @Override
        public void setConfig(io.weir.streams.state.RocksDbStoreOptions options) {
            options.columnFamilyOptions().setMaxWriteBufferNumber(2);
        }
    }

    /** A Kafka Streams setter, which Weir cannot call. */
    public static final class KafkaStreamsSetter implements org.apache.kafka.streams.state.RocksDBConfigSetter {
        @Override
        public void setConfig(String storeName, org.rocksdb.Options options, Map<String, Object> configs) {}

        @Override
        public void close(String storeName, org.rocksdb.Options options) {}
    }

    @Test
    void aRefusedSettingAtTheValueWeirImplementsIsAccepted() {
        Map<String, Object> m = minimal();
        m.put("topology.optimization", "none");
        m.put(StreamsConfig.PROCESSING_GUARANTEE, StreamsConfig.EXACTLY_ONCE_V2);
        assertTrue(new StreamsConfig(m).exactlyOnce());
        m.put("topology.optimization", "all");
        ConfigException e = assertThrows(ConfigException.class, () -> new StreamsConfig(m));
        assertTrue(e.getMessage().contains("topology.optimization"), e.getMessage());
    }

    @Test
    void everyRefusedOrInvalidSettingIsReportedAtOnce() {
        Map<String, Object> m = new HashMap<>(minimal());
        m.put("auto.offset.reset", "earliest");
        m.put("client.id", "mine");
        m.put("num.stream.thread", 2);
        m.put(StreamsConfig.NUM_STANDBY_REPLICAS, -1);
        m.put(StreamsConfig.COMMIT_INTERVAL_MS, 0);
        m.put("consumer.group.instance.id", "a");
        ConfigException e = assertThrows(ConfigException.class, () -> new StreamsConfig(m));
        assertTrue(e.getMessage().startsWith("6 settings to change"), e.getMessage());
        for (String key : List.of(
                "auto.offset.reset",
                "client.id",
                "num.stream.thread",
                StreamsConfig.NUM_STANDBY_REPLICAS,
                StreamsConfig.COMMIT_INTERVAL_MS,
                "consumer.group.instance.id")) {
            assertTrue(e.getMessage().contains("'" + key + "'"), key + " in " + e.getMessage());
        }
        assertTrue(e.getMessage().contains("Weir's own settings are"), e.getMessage());
    }

    @Test
    void anUnknownKeyIsRefusedNamingIt() {
        Map<String, Object> m = minimal();
        m.put("num.stream.thread", 2);
        ConfigException e = assertThrows(ConfigException.class, () -> new StreamsConfig(m));
        assertTrue(
                e.getMessage().contains("num.stream.thread") && e.getMessage().contains("does not know"),
                e.getMessage());
        Map<String, Object> prefixed = minimal();
        prefixed.put("main.consumer.max.poll.records", 10);
        assertTrue(assertThrows(ConfigException.class, () -> new StreamsConfig(prefixed))
                .getMessage()
                .contains("use the consumer. prefix"));
    }

    @Test
    void serdeSettingsReachEverySerdeOfTheTopologyOnce(@TempDir Path dir) {
        List<String> configured = new ArrayList<>();
        Serde<String> recording =
                new org.apache.kafka.common.serialization.Serdes.WrapperSerde<>(
                        new StringSerializer(), new StringDeserializer()) {
                    @Override
                    public void configure(Map<String, ?> configs, boolean isKey) {
                        configured.add(configs + (isKey ? " key" : " value"));
                    }
                };
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", Consumed.with(recording, io.weir.streams.serde.Serdes.String()))
                .to("out", Produced.with(recording, io.weir.streams.serde.Serdes.String()));
        Map<String, Object> m = minimal();
        m.put(StreamsConfig.STATE_DIR, dir.toString());
        m.put("serde.schema.registry.url", "http://registry:8081");
        assertEquals(Map.of("schema.registry.url", "http://registry:8081"), new StreamsConfig(m).serdeConfig());
        new WeirStreams(builder.build(), m).close();
        assertEquals(List.of("{schema.registry.url=http://registry:8081} key"), configured);
    }

    @Test
    void theConfigurationReferenceIsGeneratedFromTheDefinitions() throws Exception {
        String generated = ConfigReference.markdown(
                "Configuration reference", StreamsConfig.configDef(), ForeignSettings.refused());
        if (Boolean.getBoolean("weir.docs.write")) {
            Files.writeString(REFERENCE, generated, StandardCharsets.UTF_8);
        }
        assertEquals(
                generated,
                Files.readString(REFERENCE, StandardCharsets.UTF_8),
                "docs/reference/configuration.md is stale: rebuild with -Dweir.docs.write=true");
    }
}
