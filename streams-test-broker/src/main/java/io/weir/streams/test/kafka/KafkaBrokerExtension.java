package io.weir.streams.test.kafka;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that gives tests a running {@link KafkaBroker}, chosen by
 * {@link KafkaBrokers#fromEnvironment()}.
 *
 * <p>With {@code @ExtendWith(KafkaBrokerExtension.class)} every test class of the JVM shares one
 * broker, started on first use and closed when the JVM's test run ends. For a broker of the class's
 * own (a test that stops or restarts it), register
 * {@code @RegisterExtension static KafkaBrokerExtension kafka = KafkaBrokerExtension.perClass();}:
 * it starts before the class's first test and is closed after its last. Either way tests receive the
 * broker as a {@code KafkaBroker} parameter, or through {@link #broker()}.
 */
public final class KafkaBrokerExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(KafkaBrokerExtension.class);

    private final boolean perClass;
    private @Nullable KafkaBroker broker;

    /** The JVM-shared broker (what {@code @ExtendWith} creates). */
    public KafkaBrokerExtension() {
        this(false);
    }

    private KafkaBrokerExtension(boolean perClass) {
        this.perClass = perClass;
    }

    /**
     * A broker owned by one test class.
     *
     * @return an extension to register in a static field with {@code @RegisterExtension}
     */
    public static KafkaBrokerExtension perClass() {
        return new KafkaBrokerExtension(true);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (perClass) {
            broker = KafkaBrokers.fromEnvironment().start();
        } else {
            broker = context.getRoot()
                    .getStore(NAMESPACE)
                    .getOrComputeIfAbsent(SharedBroker.class, k -> new SharedBroker(), SharedBroker.class)
                    .broker;
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (perClass && broker != null) {
            broker.close();
            broker = null;
        }
    }

    /**
     * The broker of the running test class.
     *
     * @return the broker, started
     * @throws IllegalStateException outside a test class's lifecycle
     */
    public KafkaBroker broker() {
        if (broker == null) {
            throw new IllegalStateException("No broker: the extension is used outside a test class's lifecycle");
        }
        return broker;
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == KafkaBroker.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return broker();
    }

    /** Closed by JUnit (which closes AutoCloseable store values) when the JVM's test run ends. */
    private static final class SharedBroker implements AutoCloseable {
        final KafkaBroker broker = KafkaBrokers.fromEnvironment().start();

        @Override
        public void close() {
            broker.close();
        }
    }
}
