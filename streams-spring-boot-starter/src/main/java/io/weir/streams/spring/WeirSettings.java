package io.weir.streams.spring;

import io.weir.streams.StreamsConfig;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Weir's settings from a Spring environment: every property under {@code weir.} is a Weir setting with
 * the prefix taken off ({@code weir.application.id}, {@code weir.consumer.session.timeout.ms}), handed to
 * {@link StreamsConfig} as it is, so a key Weir does not know fails the start naming it. Only {@code
 * weir.spring.*} belongs to the starter itself. {@code application.id} defaults to {@code
 * spring.application.name}.
 *
 * <p>Environment variables are not read by name: {@code WEIR_*} variables that are not Weir settings (such
 * as the {@code WEIR_SERVICE_HOST} Kubernetes injects for a Service named {@code weir}) would otherwise
 * fail the start. They reach Weir through placeholders, {@code weir.bootstrap.servers=${KAFKA_BOOTSTRAP}}.
 */
final class WeirSettings {

    static final String PREFIX = "weir";
    static final String STARTER = "spring.";
    static final String CLOSE_TIMEOUT = "weir.spring.close-timeout";
    static final String AUTO_STARTUP = "weir.spring.auto-startup";

    private WeirSettings() {}

    static Map<String, Object> streamsConfig(Environment environment) {
        Map<String, String> bound = withoutEnvironmentVariables(environment)
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

    /** A binder over every property source but the environment variables, resolving placeholders from all. */
    private static Binder withoutEnvironmentVariables(Environment environment) {
        if (!(environment instanceof ConfigurableEnvironment configurable)) {
            return Binder.get(environment);
        }
        List<PropertySource<?>> sources = new ArrayList<>();
        for (PropertySource<?> source : configurable.getPropertySources()) {
            if (!ConfigurationPropertySources.isAttachedConfigurationPropertySource(source)
                    && !StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME.equals(source.getName())) {
                sources.add(source);
            }
        }
        return new Binder(
                ConfigurationPropertySources.from(sources), new PropertySourcesPlaceholdersResolver(configurable));
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
