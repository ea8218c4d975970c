package io.weir.streams.spring;

import io.weir.streams.Topology;
import io.weir.streams.WeirStreams;
import io.weir.streams.micrometer.WeirStreamsMetrics;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Runs the application's {@link Topology} bean as a {@link WeirStreams} instance: configured from the
 * {@code weir.*} properties (each a Weir setting, {@code weir.application.id}, {@code
 * weir.bootstrap.servers}, ...; {@code application.id} defaults to {@code spring.application.name}),
 * adjusted by every {@link WeirStreamsCustomizer} bean, started with the context and closed with it
 * ({@link WeirStreamsLifecycle}). With Spring Boot's health module present it adds {@link
 * WeirHealthIndicator} (the {@code weir} health component); with Micrometer and {@code
 * streams-micrometer}, a {@link WeirStreamsMetrics} binder that the actuator binds to its registries.
 * Each bean backs off when the application declares its own.
 */
@AutoConfiguration
@ConditionalOnBean(Topology.class)
public class WeirAutoConfiguration {

    /**
     * The instance that runs the topology, configured from the {@code weir.*} properties and adjusted by the
     * customizers; not started (the lifecycle bean starts it).
     *
     * @param topology the application's topology bean
     * @param environment where the {@code weir.*} properties are read
     * @param customizers every {@link WeirStreamsCustomizer} bean, applied in order
     * @return the instance, not started
     */
    @Bean
    @ConditionalOnMissingBean
    public WeirStreams weirStreams(
            Topology topology, Environment environment, ObjectProvider<WeirStreamsCustomizer> customizers) {
        WeirStreams streams = new WeirStreams(topology, WeirSettings.streamsConfig(environment));
        customizers.orderedStream().forEach(c -> c.customize(streams));
        return streams;
    }

    /**
     * Starts the instance with the context and closes it with the context, within {@code
     * weir.spring.close-timeout}.
     *
     * @param streams the instance to start and close
     * @param environment where the close timeout and {@code weir.spring.auto-startup} are read
     * @return the lifecycle bean
     */
    @Bean
    @ConditionalOnMissingBean
    public WeirStreamsLifecycle weirStreamsLifecycle(WeirStreams streams, Environment environment) {
        return new WeirStreamsLifecycle(
                streams, WeirSettings.closeTimeout(environment), WeirSettings.autoStartup(environment));
    }

    /** The health indicator, when Spring Boot's health module is on the classpath. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
    static class Health {

        @Bean
        @ConditionalOnMissingBean(name = "weirHealthIndicator")
        WeirHealthIndicator weirHealthIndicator(WeirStreams streams) {
            return new WeirHealthIndicator(streams);
        }
    }

    /** The metrics binder, when Micrometer and streams-micrometer are on the classpath. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(
            name = {"io.micrometer.core.instrument.binder.MeterBinder", "io.weir.streams.micrometer.WeirStreamsMetrics"
            })
    static class Metrics {

        @Bean
        @ConditionalOnMissingBean
        WeirStreamsMetrics weirStreamsMetrics(WeirStreams streams) {
            return new WeirStreamsMetrics(streams);
        }
    }
}
