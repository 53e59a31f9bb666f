package dev.cardcatalog.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * A real PostgreSQL server (zonky's embedded binaries, no Docker) with a {@code card_catalog} database.
 *
 * <p>One per JVM: {@link #shared()} starts it on first use on a free port in a throwaway data directory (or, with
 * {@code -Ptestcontainers}, a PostgreSQL container: see {@link TestInfrastructure}); {@link #start(Path, int)}
 * starts one on a kept data directory for the local run.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {

    public static final String DATABASE = "card_catalog";
    public static final String USER = "postgres";
    public static final String PASSWORD = "postgres";

    /**
     * The system property holding the port of the JVM's server. Quarkus loads test classes again for each test
     * profile, so a static field alone would start a server per profile; the property is seen by all of them.
     */
    static final String PORT_PROPERTY = "card-catalog.test.postgres.port";
    static final String HOST_PROPERTY = "card-catalog.test.postgres.host";

    private static EmbeddedPostgresServer shared;

    /** The server, when this instance started it; null for a handle on one another class loader started. */
    private final EmbeddedPostgres postgres;
    /** The Testcontainers container, when this instance started one. */
    private final AutoCloseable container;
    private final String host;
    private final int port;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres, int port) {
        this(postgres, null, "localhost", port);
    }

    private EmbeddedPostgresServer(EmbeddedPostgres postgres, AutoCloseable container, String host, int port) {
        this.postgres = postgres;
        this.container = container;
        this.host = host;
        this.port = port;
    }

    /** The JVM's server, started on first use (by whichever class loader comes first); stopped at exit. */
    public static EmbeddedPostgresServer shared() {
        synchronized (System.getProperties()) {
            if (shared == null) {
                String port = System.getProperty(PORT_PROPERTY);
                if (port != null) {
                    shared = new EmbeddedPostgresServer(null, null, System.getProperty(HOST_PROPERTY, "localhost"),
                            Integer.parseInt(port));
                } else if (TestInfrastructure.testcontainers()) {
                    var container = TestInfrastructure.startPostgres();
                    shared = new EmbeddedPostgresServer(null, container, container.getHost(),
                            container.getMappedPort(5432));
                    System.setProperty(HOST_PROPERTY, shared.host);
                    System.setProperty(PORT_PROPERTY, String.valueOf(shared.port()));
                } else {
                    shared = start(null, 0);
                    System.setProperty(PORT_PROPERTY, String.valueOf(shared.port()));
                }
            }
            return shared;
        }
    }

    /**
     * Stops the JVM's server now, if this class loader started it, instead of in zonky's shutdown hook beside the
     * JVM's other hooks (see {@link StopSharedInfrastructure}). Closing twice is harmless.
     */
    public static void stopShared() {
        synchronized (System.getProperties()) {
            if (shared != null && (shared.postgres != null || shared.container != null)) {
                try {
                    shared.close();
                } catch (Exception e) {
                    System.err.println("the embedded PostgreSQL did not stop cleanly: " + e.getMessage());
                }
                shared = null;
            }
        }
    }

    /**
     * Starts a server.
     *
     * @param dataDirectory where the cluster lives, kept between starts; null for a throwaway directory
     * @param port the port, 0 for a free one: then, if the server cannot start (another process may take the free
     *             port found before the server binds it: two test JVMs starting at once did, in a clean clone's
     *             suite), it is started again on another, {@value #FREE_PORT_ATTEMPTS} times in all
     */
    public static EmbeddedPostgresServer start(Path dataDirectory, int port) {
        return port > 0 ? start(dataDirectory, () -> port, 1, STARTUP_WAIT)
                : start(dataDirectory, () -> 0, FREE_PORT_ATTEMPTS, STARTUP_WAIT);
    }

    /** How many times a server on a free port is tried ({@link #start(Path, int)}). */
    static final int FREE_PORT_ATTEMPTS = 3;

    /** How long a start waits for the server to take connections: a loaded machine's start takes seconds. */
    private static final Duration STARTUP_WAIT = Duration.ofSeconds(60);

    /**
     * Starts a server on the port {@code ports} gives (0: a free one), trying {@code attempts} times in all, each
     * on the next port it gives, waiting up to {@code startupWait} each time.
     */
    static EmbeddedPostgresServer start(Path dataDirectory, java.util.function.IntSupplier ports, int attempts,
            Duration startupWait) {
        for (int attempt = 1;; attempt++) {
            try {
                return startOnce(dataDirectory, ports.getAsInt(), startupWait);
            } catch (UncheckedIOException e) {
                if (attempt >= attempts) {
                    throw e;
                }
                System.err.printf("the embedded PostgreSQL did not start (%s); trying again on another port%n",
                        e.getCause().getMessage());
            }
        }
    }

    private static EmbeddedPostgresServer startOnce(Path dataDirectory, int port, Duration startupWait) {
        try {
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setPGStartupWait(startupWait)
                    .setServerConfig("max_connections", "100")
                    .setServerConfig("fsync", "off")
                    .setServerConfig("synchronous_commit", "off")
                    .setServerConfig("full_page_writes", "off")
                    // a catalog load writes about 1 GB of WAL: size shared memory and checkpoints for it
                    .setServerConfig("shared_buffers", "256MB")
                    .setServerConfig("max_wal_size", "4GB")
                    .setServerConfig("checkpoint_timeout", "30min")
                    .setServerConfig("wal_buffers", "16MB");
            if (port > 0) {
                builder.setPort(port);
            }
            if (dataDirectory != null) {
                // A kept cluster is the local run's: its own shutdown hook stops the service first and the database
                // after, so a stopping service can still hand its runs back. zonky's hook would stop it at once.
                builder.setDataDirectory(dataDirectory).setCleanDataDirectory(false).setRegisterShutdownHook(false);
            }
            EmbeddedPostgres postgres = builder.start();
            EmbeddedPostgresServer server = new EmbeddedPostgresServer(postgres, postgres.getPort());
            server.createDatabase();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the embedded PostgreSQL", e);
        }
    }

    private void createDatabase() {
        try (Connection connection = java.sql.DriverManager.getConnection(
                "jdbc:postgresql://localhost:" + port + "/postgres", USER, PASSWORD);
                Statement statement = connection.createStatement()) {
            var exists = statement.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'");
            if (!exists.next()) {
                statement.execute("CREATE DATABASE " + DATABASE);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not create database " + DATABASE, e);
        }
    }

    public int port() {
        return port;
    }

    public String host() {
        return host;
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://" + host + ":" + port() + "/" + DATABASE;
    }

    public String reactiveUrl() {
        return "postgresql://" + host + ":" + port() + "/" + DATABASE;
    }

    @Override
    public void close() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
        if (container != null) {
            container.close();
        }
    }
}
