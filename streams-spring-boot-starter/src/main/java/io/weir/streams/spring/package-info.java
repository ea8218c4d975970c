/**
 * Weir in Spring Boot: declare a {@code Topology} bean and {@link
 * io.weir.streams.spring.WeirAutoConfiguration} runs it as a {@code WeirStreams} configured from the
 * {@code weir.*} properties, started and closed with the application context, with a health indicator and
 * Micrometer metrics in the actuator.
 */
@NullMarked
package io.weir.streams.spring;

import org.jspecify.annotations.NullMarked;
