package io.weir.streams;

import io.weir.streams.internals.ConfigReference;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

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

    @Test
    void theConfigurationReferenceIsGeneratedFromTheDefinitions() throws Exception {
        String generated = ConfigReference.markdown("Configuration reference", StreamsConfig.configDef());
        if (Boolean.getBoolean("weir.docs.write")) {
            Files.writeString(REFERENCE, generated, StandardCharsets.UTF_8);
        }
        assertEquals(
                generated,
                Files.readString(REFERENCE, StandardCharsets.UTF_8),
                "docs/reference/configuration.md is stale: rebuild with -Dweir.docs.write=true");
    }
}
