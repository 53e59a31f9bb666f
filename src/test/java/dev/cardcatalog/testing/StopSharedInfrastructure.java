package dev.cardcatalog.testing;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Stops the test JVM's shared Kafka broker and PostgreSQL once every test has run, one after the other, while the
 * JVM is still running normally. Left to their shutdown hooks, they stopped concurrently with each other and with
 * the JVM's exit, and the forked test JVM once ended with a non-zero status after every test had passed (the
 * cause, Kafka's test kit deleting the broker's directory from a hook of its own, is gone since: see
 * {@link EmbeddedKafkaBroker#start}).
 * Registered in {@code META-INF/services/org.junit.platform.launcher.LauncherSessionListener}; active in the
 * integration-test JVM only.
 */
public class StopSharedInfrastructure implements LauncherSessionListener {

    /** Set by the failsafe configuration: the integration-test JVM, where no Quarkus application uses them. */
    static final String ENABLED_PROPERTY = "card-catalog.test.stop-infrastructure-after-session";

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        if (!Boolean.getBoolean(ENABLED_PROPERTY)) {
            return; // in the unit-test JVM a Quarkus application may still be connected until the JVM exits
        }
        System.out.println("Stopping the shared Kafka broker and PostgreSQL after the last test");
        EmbeddedKafkaBroker.stopShared();
        EmbeddedPostgresServer.stopShared();
    }
}
