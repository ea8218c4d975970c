package io.weir.streams.spring;

import io.weir.streams.StreamsConfig;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Weir's settings from a Spring environment: every property under {@code weir.} is a Weir setting with
 * the prefix taken off ({@code weir.application.id}, {@code weir.consumer.session.timeout.ms}), handed to
 * {@link StreamsConfig} as it is, so a key Weir does not know fails the start naming it. Only {@code
 * weir.spring.*} belongs to the starter itself. {@code application.id} defaults to {@code
 * spring.application.name}.
 */
final class WeirSettings {

    static final String PREFIX = "weir";
    static final String STARTER = "spring.";
    static final String CLOSE_TIMEOUT = "weir.spring.close-timeout";
    static final String AUTO_STARTUP = "weir.spring.auto-startup";

    private WeirSettings() {}

    static Map<String, Object> streamsConfig(Environment environment) {
        Map<String, String> bound = Binder.get(environment)
                .bind(PREFIX, Bindable.mapOf(String.class, String.class))
                .orElseGet(Map::of);
        Map<String, Object> config = new HashMap<>();
        bound.forEach((key, value) -> {
            if (!key.startsWith(STARTER)) {
                config.put(key, value);
            }
        });
        String name = environment.getProperty("spring.application.name");
        if (name != null && !config.containsKey(StreamsConfig.APPLICATION_ID)) {
            config.put(StreamsConfig.APPLICATION_ID, name);
        }
        return config;
    }

    /** How long closing the instance may take when the context closes: {@code weir.spring.close-timeout}, 30 s by default. */
    static Duration closeTimeout(Environment environment) {
        return Binder.get(environment).bind(CLOSE_TIMEOUT, Duration.class).orElse(Duration.ofSeconds(30));
    }

    /** Whether the instance starts with the context: {@code weir.spring.auto-startup}, true by default. */
    static boolean autoStartup(Environment environment) {
        return Binder.get(environment).bind(AUTO_STARTUP, Boolean.class).orElse(true);
    }
}
