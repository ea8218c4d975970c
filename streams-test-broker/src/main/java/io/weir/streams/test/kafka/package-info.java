/**
 * The real-broker test kit: an Apache Kafka broker (KRaft) started inside the test JVM
 * ({@link io.weir.streams.test.kafka.EmbeddedKafkaBroker}), through Testcontainers where a Docker
 * engine exists, or an external one; {@link io.weir.streams.test.kafka.KafkaBrokers} picks one from
 * system properties and {@link io.weir.streams.test.kafka.KafkaBrokerExtension} shares it across a
 * JUnit 5 test class; {@link io.weir.streams.test.kafka.FreePorts} and
 * {@link io.weir.streams.test.kafka.TempDirs} help with ports and directories, and
 * {@link io.weir.streams.test.kafka.TopicLeaders} waits until a topic made elsewhere takes writes. Public
 * API: stable within a major version.
 */
@NullMarked
package io.weir.streams.test.kafka;

import org.jspecify.annotations.NullMarked;
