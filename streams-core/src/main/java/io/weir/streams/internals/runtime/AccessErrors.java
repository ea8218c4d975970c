package io.weir.streams.internals.runtime;

import io.weir.streams.StreamsConfig;
import io.weir.streams.internals.topology.TopologySpec;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns Kafka's refusals into errors that say what to fix. A broker that does not accept the application's
 * credentials, or an ACL that is missing, will not change by retrying: these end the start or the thread
 * at once, with the permission the application's principal lacks and where. Never prints a secret: only
 * the protocol and mechanism settings and Kafka's own message, which names no password.
 */
public final class AccessErrors {

    private static final String GUIDE = "see docs/guides/security.md for every ACL an application needs";

    private final String applicationId;
    private final String bootstrapServers;
    private final String protocol;
    private final String mechanism;
    private final Set<String> inputs;
    private final Set<String> outputs;

    public AccessErrors(StreamsConfig config, TopologySpec topology) {
        this.applicationId = config.applicationId();
        this.bootstrapServers = config.bootstrapServers();
        Map<String, Object> admin = config.clientConfig(StreamsConfig.ADMIN_PREFIX);
        Object p = admin.get(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG);
        Object m = admin.get(SaslConfigs.SASL_MECHANISM);
        this.protocol = p == null ? "PLAINTEXT" : p.toString();
        this.mechanism = m == null ? "GSSAPI (Kafka's default)" : m.toString();
        this.inputs = topology.sourceTopics();
        this.outputs = topology.outputTopics();
    }

    /**
     * If {@code e} or one of its causes is an authentication or authorization failure, that failure
     * explained; otherwise null.
     */
    public @Nullable RuntimeException explain(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof AuthenticationException a) {
                return new AuthenticationException(
                        "Kafka at " + bootstrapServers + " did not accept the credentials of application "
                                + applicationId + " (security.protocol=" + protocol + ", sasl.mechanism=" + mechanism
                                + "): " + a.getMessage() + ". Check the user and password in sasl.jaas.config, and "
                                + "that the mechanism is one the broker's listener enables.",
                        a);
            }
            if (c instanceof AuthorizationException a) {
                return new AuthorizationException(
                        "Application " + applicationId + " is not authorized: its principal needs " + needed(a)
                                + " (Kafka: " + a.getMessage() + "); " + GUIDE + ".",
                        a);
            }
        }
        return null;
    }

    /** Whether {@code e} or one of its causes is a failure that retrying will not cure. */
    public static boolean isAccessError(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof AuthenticationException || c instanceof AuthorizationException) {
                return true;
            }
        }
        return false;
    }

    private String needed(AuthorizationException a) {
        if (a instanceof TopicAuthorizationException t) {
            List<String> needs = new ArrayList<>();
            for (String topic : new TreeSet<>(t.unauthorizedTopics())) {
                needs.add(topicNeeds(topic));
            }
            return needs.isEmpty() ? "a topic permission" : String.join("; ", needs);
        }
        if (a instanceof GroupAuthorizationException g) {
            return "READ on the consumer group '" + (g.groupId() == null ? applicationId : g.groupId()) + "'";
        }
        if (a instanceof TransactionalIdAuthorizationException) {
            return "WRITE on transactional ids with the prefix '" + applicationId + "-' (exactly-once)";
        }
        if (a instanceof ClusterAuthorizationException) {
            return "a cluster permission (CREATE, unless it may create topics with the prefix '" + applicationId
                    + "-'; IDEMPOTENT_WRITE on brokers before Kafka 2.8)";
        }
        return "a permission Kafka did not name";
    }

    private String topicNeeds(String topic) {
        // The application's own topics first: an input or output may share the internal prefix.
        if (inputs.contains(topic)) {
            return "READ on its input topic '" + topic + "'";
        }
        if (outputs.contains(topic)) {
            return "WRITE and DESCRIBE_CONFIGS on its output topic '" + topic + "'";
        }
        if (topic.startsWith(applicationId + "-")) {
            // The least that works, never ALL (READ, WRITE and DELETE each imply DESCRIBE).
            return "CREATE, READ, WRITE, DESCRIBE_CONFIGS and DELETE on topics with the prefix '" + applicationId
                    + "-' (a PREFIXED ACL, the '-' included; its internal topics, such as '" + topic + "')";
        }
        return "READ (a source by pattern or a global table) or WRITE on topic '" + topic + "'";
    }
}
