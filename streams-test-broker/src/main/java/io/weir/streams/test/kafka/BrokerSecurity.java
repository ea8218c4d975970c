package io.weir.streams.test.kafka;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How an {@link EmbeddedKafkaBroker} secures its client listener, for tests of security settings against
 * a broker that enforces them. Clients authenticate with SASL/SCRAM-SHA-512, over TLS with {@link
 * #withTls()}; with {@link #withAcls()} the broker authorizes every request with Kafka's {@code
 * StandardAuthorizer} and denies what no ACL allows. The super user {@value #SUPER_USER} (a random
 * password, {@link EmbeddedKafkaBroker#superUserConfig()}) may do anything; the users of {@link
 * #withUser} exist from the start, with no ACLs. Immutable.
 *
 * <p>The broker's own traffic (between its broker and controller parts) uses a second, loopback-only
 * listener that only the super user can log into; clients are never told of it.
 */
public final class BrokerSecurity {

    /** The super user's name. */
    public static final String SUPER_USER = "admin";

    private final boolean tls;
    private final boolean acls;
    private final Map<String, String> users;
    private final String superUserPassword;

    private BrokerSecurity(boolean tls, boolean acls, Map<String, String> users, String superUserPassword) {
        this.tls = tls;
        this.acls = acls;
        this.users = Map.copyOf(users);
        this.superUserPassword = superUserPassword;
    }

    /**
     * SASL/SCRAM-SHA-512 over plaintext, no ACLs, no users but the super user.
     *
     * @return security with SCRAM only, and a new random super-user password
     */
    public static BrokerSecurity scram() {
        byte[] secret = new byte[16];
        new SecureRandom().nextBytes(secret);
        return new BrokerSecurity(false, false, Map.of(), HexFormat.of().formatHex(secret));
    }

    /**
     * The client listener also encrypts (SASL_SSL), with a certificate made for this broker.
     *
     * @return a copy whose client listener uses SASL_SSL
     */
    public BrokerSecurity withTls() {
        return new BrokerSecurity(true, acls, users, superUserPassword);
    }

    /**
     * The broker authorizes requests: only the super user and what ACLs allow.
     *
     * @return a copy whose broker enforces ACLs
     */
    public BrokerSecurity withAcls() {
        return new BrokerSecurity(tls, true, users, superUserPassword);
    }

    /**
     * A SCRAM user created when the broker starts.
     *
     * @param name the user's name; not {@value #SUPER_USER}
     * @param password the user's password
     * @return a copy with that user added (or its password replaced)
     * @throws IllegalArgumentException if {@code name} is the super user's
     */
    public BrokerSecurity withUser(String name, String password) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(password, "password");
        if (name.equals(SUPER_USER)) {
            throw new IllegalArgumentException("'" + SUPER_USER + "' is the super user's name");
        }
        Map<String, String> more = new LinkedHashMap<>(users);
        more.put(name, password);
        return new BrokerSecurity(tls, acls, more, superUserPassword);
    }

    /**
     * Whether the client listener encrypts (SASL_SSL rather than SASL_PLAINTEXT).
     *
     * @return true after {@link #withTls()}
     */
    public boolean tls() {
        return tls;
    }

    /**
     * Whether the broker authorizes requests with ACLs.
     *
     * @return true after {@link #withAcls()}
     */
    public boolean acls() {
        return acls;
    }

    /**
     * The SCRAM users made at start, by name, with their passwords; the super user aside.
     *
     * @return an unmodifiable map of user names to passwords
     */
    public Map<String, String> users() {
        return users;
    }

    String superUserPassword() {
        return superUserPassword;
    }

    @Override
    public String toString() {
        // No password: this may end up in a log line.
        return "BrokerSecurity[SCRAM-SHA-512" + (tls ? " over TLS" : "") + (acls ? ", ACLs" : "") + ", users "
                + users.keySet() + "]";
    }
}
