package io.weir.streams.test.kafka;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;

/**
 * Chooses the broker a test run uses, in this order:
 * <ol>
 *   <li>an explicit bootstrap address: system property {@value #BOOTSTRAP_PROPERTY} or environment
 *       variable {@value #BOOTSTRAP_ENV} ({@link ExternalKafkaBroker});</li>
 *   <li>a Testcontainers container, when {@value #BROKER_PROPERTY}{@code =testcontainers} is set and a
 *       Docker engine answers ({@link TestcontainersKafkaBroker});</li>
 *   <li>otherwise the in-JVM broker ({@link EmbeddedKafkaBroker}). Lack of Docker never fails a run.</li>
 * </ol>
 */
public final class KafkaBrokers {

    /** System property naming an external broker's bootstrap address. */
    public static final String BOOTSTRAP_PROPERTY = "weir.kafka.bootstrap";
    /** Environment variable naming an external broker's bootstrap address, when the property is not set. */
    public static final String BOOTSTRAP_ENV = "WEIR_KAFKA_BOOTSTRAP";
    /** System property choosing the broker kind: {@code embedded} (the default) or {@code testcontainers}. */
    public static final String BROKER_PROPERTY = "weir.kafka.broker";

    private static final Logger log = LoggerFactory.getLogger(KafkaBrokers.class);

    private KafkaBrokers() {}

    /**
     * The broker the environment asks for, not yet started; the caller owns and closes it.
     *
     * @return the chosen broker
     * @throws IllegalArgumentException if {@value #BROKER_PROPERTY} names an unknown kind
     */
    public static KafkaBroker fromEnvironment() {
        String bootstrap = System.getProperty(BOOTSTRAP_PROPERTY, System.getenv(BOOTSTRAP_ENV));
        if (bootstrap != null && !bootstrap.isBlank()) {
            log.info("Using the external Kafka broker at {}", bootstrap);
            return ExternalKafkaBroker.at(bootstrap);
        }
        String kind = System.getProperty(BROKER_PROPERTY, "embedded").trim().toLowerCase(Locale.ROOT);
        return switch (kind) {
            case "testcontainers" -> {
                if (dockerAvailable()) {
                    yield TestcontainersKafkaBroker.create();
                }
                log.warn(
                        "-D{}=testcontainers was asked for but no Docker engine (or no Testcontainers on the "
                                + "classpath) is available; using the in-JVM broker",
                        BROKER_PROPERTY);
                yield EmbeddedKafkaBroker.create();
            }
            case "embedded" -> EmbeddedKafkaBroker.create();
            default ->
                throw new IllegalArgumentException("-D" + BROKER_PROPERTY + "=" + kind
                        + " is not a broker kind; use 'embedded' or 'testcontainers'");
        };
    }

    private static boolean dockerAvailable() {
        try {
            return org.testcontainers.DockerClientFactory.instance().isDockerAvailable();
        } catch (NoClassDefFoundError | RuntimeException e) {
            return false;
        }
    }
}
