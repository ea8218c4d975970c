package io.weir.streams.runtime;

import io.weir.streams.WeirStreams;
import io.weir.streams.test.kafka.ExternalKafkaBroker;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * A windowed-count instance run in a child JVM by {@link CrashTest}, which kills it with
 * destroyForcibly(). Arguments: bootstrap, application id, input, output, state dir, guarantee.
 */
public final class CrashTestApp {

    private CrashTestApp() {}

    /** Starts {@code app} and exits the JVM when it stops: status 1 if it failed, else 0. */
    static void runUntilStopped(WeirStreams app) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        app.setStateListener((now, before) -> {
            if (now == WeirStreams.State.ERROR || now == WeirStreams.State.NOT_RUNNING) {
                done.countDown();
            }
        });
        app.start();
        done.await();
        System.exit(app.state() == WeirStreams.State.ERROR ? 1 : 0);
    }

    public static void main(String[] args) throws InterruptedException {
        ExternalKafkaBroker broker = ExternalKafkaBroker.at(args[0]);
        WeirStreams app = WindowedCountApp.instance(broker, args[1], args[2], args[3], Path.of(args[4]), args[5]);
        runUntilStopped(app);
    }
}
