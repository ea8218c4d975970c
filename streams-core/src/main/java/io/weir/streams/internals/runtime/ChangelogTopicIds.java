package io.weir.streams.internals.runtime;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Looks up the topic ids of changelogs, so that a restore can tell the changelog a store was built from
 * from a topic of the same name made since. A topic whose id cannot be read now is left out (the store is
 * then checked by offsets only, and its id recorded at a later restore), logged. Used by one thread.
 */
final class ChangelogTopicIds {

    private static final Logger log = LoggerFactory.getLogger(ChangelogTopicIds.class);

    private final Admin admin;
    private final Duration timeout;

    ChangelogTopicIds(Admin admin, Duration timeout) {
        this.admin = admin;
        this.timeout = timeout;
    }

    /** The id of each of {@code topics} that exists and could be read, in one round trip. */
    Map<String, Uuid> of(Set<String> topics) {
        Map<String, Uuid> ids = new HashMap<>();
        if (topics.isEmpty()) {
            return ids;
        }
        for (Map.Entry<String, KafkaFuture<TopicDescription>> e :
                admin.describeTopics(topics).topicNameValues().entrySet()) {
            try {
                ids.put(
                        e.getKey(),
                        e.getValue()
                                .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                                .topicId());
            } catch (ExecutionException | TimeoutException x) {
                log.warn(
                        "Cannot read the topic id of changelog {} ({}): its stores are checked by offsets only",
                        e.getKey(),
                        String.valueOf(x.getCause() != null ? x.getCause() : x));
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while reading changelog topic ids", x);
            }
        }
        return ids;
    }
}
