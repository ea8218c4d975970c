package io.weir.streams.spring;

import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WeirSettingsTest {

    private static StandardEnvironment environment(Map<String, Object> properties, Map<String, Object> variables) {
        StandardEnvironment env = new StandardEnvironment();
        env.getPropertySources()
                .replace(
                        StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        new SystemEnvironmentPropertySource(
                                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
        env.getPropertySources().addFirst(new MapPropertySource("application", properties));
        return env;
    }

    @Test
    void everyWeirPropertyIsAWeirSettingAndTheApplicationNameIsTheDefaultId() {
        Map<String, Object> config = WeirSettings.streamsConfig(environment(
                Map.of(
                        "spring.application.name", "orders",
                        "weir.bootstrap.servers", "k:9092",
                        "weir.consumer.session.timeout.ms", "10000",
                        "weir.spring.close-timeout", "5s"),
                Map.of()));
        assertEquals(
                Map.of(
                        "application.id", "orders",
                        "bootstrap.servers", "k:9092",
                        "consumer.session.timeout.ms", "10000"),
                config);
    }

    @Test
    void environmentVariablesReachWeirThroughPlaceholdersOnly() {
        StandardEnvironment env = environment(
                Map.of("weir.application.id", "orders", "weir.bootstrap.servers", "${KAFKA_BOOTSTRAP}"),
                Map.of("KAFKA_BOOTSTRAP", "broker:9093", "WEIR_SERVICE_HOST", "10.0.0.7", "WEIR_PORT", "tcp://x:1"));
        Map<String, Object> config = WeirSettings.streamsConfig(env);
        assertEquals("broker:9093", config.get("bootstrap.servers"));
        assertTrue(
                config.keySet().stream().noneMatch(k -> k.startsWith("service") || k.equals("port")), config::toString);
    }

    @Test
    void theStartersOwnSettingsHaveDefaults() {
        StandardEnvironment env = environment(Map.of(), Map.of());
        assertEquals(Duration.ofSeconds(30), WeirSettings.closeTimeout(env));
        assertTrue(WeirSettings.autoStartup(env));
    }
}
