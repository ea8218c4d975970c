package io.weir.streams.internals.testkit;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The listeners of a secured test broker, and how to connect to each. {@code CLIENT} is what clients
 * use: SASL/SCRAM-SHA-512, over TLS when {@code tls} is given. {@code INTERNAL} (the broker's own
 * traffic) and {@code CONTROLLER} use SASL/PLAIN with the super user only, on loopback ports that no
 * client is told of. With {@code acls}, Kafka's {@code StandardAuthorizer} denies what no ACL allows;
 * the super user is exempt.
 */
public record SecuredListeners(
        int clientPort,
        int internalPort,
        int controllerPort,
        String superUser,
        String superUserPassword,
        boolean acls,
        @Nullable TlsMaterial tls) {

    private static final String SCRAM = "SCRAM-SHA-512";
    private static final long TIMEOUT_SECONDS = 30;

    /** The broker settings for these listeners. */
    public Map<String, String> brokerConfig() {
        Map<String, String> c = new LinkedHashMap<>();
        c.put(
                "listeners",
                "CLIENT://127.0.0.1:" + clientPort + ",INTERNAL://127.0.0.1:" + internalPort
                        + ",CONTROLLER://127.0.0.1:" + controllerPort);
        c.put("advertised.listeners", "CLIENT://127.0.0.1:" + clientPort + ",INTERNAL://127.0.0.1:" + internalPort);
        c.put(
                "listener.security.protocol.map",
                "CLIENT:" + clientProtocol() + ",INTERNAL:SASL_PLAINTEXT,CONTROLLER:SASL_PLAINTEXT");
        c.put("inter.broker.listener.name", "INTERNAL");
        c.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
        c.put("sasl.mechanism.controller.protocol", "PLAIN");
        c.put("listener.name.client.sasl.enabled.mechanisms", SCRAM);
        c.put(
                "listener.name.client.scram-sha-512.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        String plain = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + superUser
                + "\" password=\"" + superUserPassword + "\" user_" + superUser + "=\"" + superUserPassword + "\";";
        for (String listener : List.of("internal", "controller")) {
            c.put("listener.name." + listener + ".sasl.enabled.mechanisms", "PLAIN");
            c.put("listener.name." + listener + ".plain.sasl.jaas.config", plain);
        }
        TlsMaterial t = tls;
        if (t != null) {
            c.put("listener.name.client.ssl.keystore.type", "PKCS12");
            c.put("listener.name.client.ssl.keystore.location", t.keyStore().toString());
            c.put("listener.name.client.ssl.keystore.password", t.password());
            c.put("listener.name.client.ssl.key.password", t.password());
        }
        if (acls) {
            c.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
            c.put("super.users", "User:" + superUser);
            c.put("allow.everyone.if.no.acl.found", "false");
        }
        return c;
    }

    private String clientProtocol() {
        return tls == null ? "SASL_PLAINTEXT" : "SASL_SSL";
    }

    /** Settings for a client of the {@code CLIENT} listener logging in as {@code user}. */
    public Map<String, Object> clientConfig(String user, String password) {
        Map<String, Object> c = new HashMap<>();
        c.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + clientPort);
        c.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, clientProtocol());
        c.put(SaslConfigs.SASL_MECHANISM, SCRAM);
        c.put(
                SaslConfigs.SASL_JAAS_CONFIG,
                "org.apache.kafka.common.security.scram.ScramLoginModule required " + "username=\"" + user
                        + "\" password=\"" + password + "\";");
        TlsMaterial t = tls;
        if (t != null) {
            c.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM");
            c.put(SslConfigs.SSL_TRUSTSTORE_CERTIFICATES_CONFIG, t.certificatePem());
        }
        return c;
    }

    /** Settings for the kit's own admin client: the super user on the {@code INTERNAL} listener. */
    public Map<String, Object> internalAdminConfig() {
        Map<String, Object> c = new HashMap<>();
        c.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + internalPort);
        c.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        c.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        c.put(
                SaslConfigs.SASL_JAAS_CONFIG,
                "org.apache.kafka.common.security.plain.PlainLoginModule required " + "username=\"" + superUser
                        + "\" password=\"" + superUserPassword + "\";");
        c.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        return c;
    }

    /** Creates (or resets) SCRAM credentials for {@code users} and waits until the broker knows them. */
    public void createUsers(Map<String, String> users) {
        List<UserScramCredentialAlteration> upserts = new ArrayList<>();
        users.forEach((user, password) -> upserts.add(new UserScramCredentialUpsertion(
                user, new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), password)));
        try (Admin admin = Admin.create(internalAdminConfig())) {
            admin.alterUserScramCredentials(upserts).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            Map<String, UserScramCredentialsDescription> known = admin.describeUserScramCredentials(
                            List.copyOf(users.keySet()))
                    .all()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!known.keySet().containsAll(users.keySet())) {
                throw new IllegalStateException("The broker does not know the users " + users.keySet() + " yet");
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot create the SCRAM users " + users.keySet() + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating SCRAM users", e);
        }
    }

    @Override
    public String toString() {
        // No password: a record's own toString would print it.
        return "SecuredListeners[client " + clientPort + " " + clientProtocol() + ", internal " + internalPort
                + ", controller " + controllerPort + (acls ? ", ACLs" : "") + "]";
    }
}
