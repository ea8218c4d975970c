package io.weir.benchmarks.runtime;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Deletes the topics a benchmark run made once it no longer needs them. A run at 600 tasks makes some 2,400
 * partitions (input, output, changelogs, two engines or modes), and a broker keeps a file handle or more
 * per partition: a few such runs on one standalone broker exhaust its file descriptors and it stops
 * ("Too many open files"), failing every run after.
 */
final class RunTopics {

    private static final Logger log = LoggerFactory.getLogger(RunTopics.class);
    private static final long TIMEOUT_S = 60;

    private RunTopics() {}

    /**
     * Deletes every topic whose name starts with {@code prefix}, and waits for the broker to accept the
     * deletion. A failure is logged, not thrown: the figures already taken stay valid.
     */
    static void deleteStartingWith(String bootstrapServers, String prefix) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            List<String> topics = admin.listTopics().names().get(TIMEOUT_S, TimeUnit.SECONDS).stream()
                    .filter(t -> t.startsWith(prefix))
                    .toList();
            if (!topics.isEmpty()) {
                admin.deleteTopics(topics).all().get(TIMEOUT_S, TimeUnit.SECONDS);
                log.info("Deleted {} topics of {}", topics.size(), prefix);
            }
        } catch (ExecutionException | TimeoutException e) {
            log.warn("Could not delete the topics of {}: {}", prefix, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
