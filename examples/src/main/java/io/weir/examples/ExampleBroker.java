package io.weir.examples;

import io.weir.streams.test.kafka.EmbeddedKafkaBroker;
import io.weir.streams.test.kafka.ExternalKafkaBroker;
import io.weir.streams.test.kafka.KafkaBroker;

import java.io.PrintStream;

/**
 * Where an example command finds Kafka: the cluster named by {@code --bootstrap-servers} (which must answer
 * within 15 s), or else an Apache Kafka broker (KRaft) it starts in this process. Closing the returned
 * broker stops an embedded one and deletes its data; an external cluster is left as it is.
 */
final class ExampleBroker {

    private ExampleBroker() {}

    /** @param preferredPort the embedded broker's port when free (another free one otherwise); 0 for any */
    static KafkaBroker start(Options options, int preferredPort, PrintStream out) {
        if (options.has("bootstrap-servers")) {
            KafkaBroker cluster = started(ExternalKafkaBroker.at(options.required("bootstrap-servers")));
            out.println("Kafka is up at " + cluster.bootstrapServers());
            return cluster;
        }
        out.println("No --bootstrap-servers given: starting an Apache Kafka broker (KRaft) in this process");
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.create();
        if (preferredPort != 0) {
            broker = broker.withPreferredPort(preferredPort);
        }
        started(broker);
        String address = broker.bootstrapServers();
        boolean moved = preferredPort != 0 && !address.endsWith(":" + preferredPort);
        out.println("Kafka is up at " + address
                + (moved ? " (port " + preferredPort + " is in use, so the broker took another)" : ""));
        return broker;
    }

    /** Starts {@code broker}, closing it (its clients, an embedded one's data) if it does not start. */
    private static <B extends KafkaBroker> B started(B broker) {
        try {
            broker.start();
            return broker;
        } catch (RuntimeException e) {
            broker.close();
            throw e;
        }
    }
}
