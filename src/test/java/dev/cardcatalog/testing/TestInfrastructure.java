package dev.cardcatalog.testing;

import java.util.function.BooleanSupplier;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * Which PostgreSQL and Kafka the tests run against. By default the embedded ones ({@link EmbeddedPostgresServer}'s
 * zonky binaries, {@link EmbeddedKafkaBroker}'s KRaft test kit), which need no Docker. With
 * {@code ./mvnw verify -Ptestcontainers} (the system property {@value #PROPERTY} = {@code testcontainers}) the same
 * suite runs against Testcontainers' PostgreSQL and Kafka instead, for users with a Docker engine; without one the
 * first test that needs either fails at once with {@link #NO_DOCKER}.
 *
 * <p>The containers are started once per test JVM, like the embedded servers, and configured like them: a
 * {@code card_catalog} database owned by {@code postgres}/{@code postgres} on PostgreSQL 17 (the embedded binaries'
 * major version), and a single KRaft Kafka node of the client's version that creates topics on first use with
 * {@link EmbeddedKafkaBroker#PARTITIONS} partitions. Testcontainers' Ryuk container removes them when the JVM exits.
 */
public final class TestInfrastructure {

    /** The system property that selects the infrastructure: {@code embedded} (the default) or {@code testcontainers}. */
    public static final String PROPERTY = "card-catalog.test.infrastructure";

    /** What a run with {@code -Ptestcontainers} says when no Docker engine answers. */
    public static final String NO_DOCKER = "-Ptestcontainers runs the tests against Testcontainers' PostgreSQL and"
            + " Kafka, which need a Docker engine, and Testcontainers found none (is Docker running, and is"
            + " DOCKER_HOST or ~/.testcontainers.properties right?). Run without -Ptestcontainers to use the embedded"
            + " PostgreSQL and Kafka, which need no Docker.";

    static final String POSTGRES_IMAGE = "postgres:17-alpine";
    static final String KAFKA_IMAGE = "apache/kafka:4.1.2";

    private TestInfrastructure() {
    }

    /** Whether this JVM's tests run against Testcontainers ({@code -Ptestcontainers}). */
    public static boolean testcontainers() {
        String chosen = System.getProperty(PROPERTY, "embedded");
        return switch (chosen) {
            case "embedded", "" -> false;
            case "testcontainers" -> true;
            default -> throw new IllegalStateException(PROPERTY + " is \"" + chosen
                    + "\"; it is either embedded (the default) or testcontainers");
        };
    }

    /**
     * Fails at once, with {@link #NO_DOCKER}, when {@code dockerAvailable} says there is no Docker engine.
     *
     * @throws IllegalStateException when there is none
     */
    static void requireDocker(BooleanSupplier dockerAvailable) {
        if (!dockerAvailable.getAsBoolean()) {
            throw new IllegalStateException(NO_DOCKER);
        }
    }

    /** Testcontainers' own check: whether a Docker engine answers, by its configured strategies. */
    static boolean dockerAvailable() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    /** A started PostgreSQL container with the embedded server's database, user and settings. */
    static PostgreSQLContainer startPostgres() {
        requireDocker(TestInfrastructure::dockerAvailable);
        PostgreSQLContainer container = new PostgreSQLContainer(POSTGRES_IMAGE)
                .withDatabaseName(EmbeddedPostgresServer.DATABASE)
                .withUsername(EmbeddedPostgresServer.USER)
                .withPassword(EmbeddedPostgresServer.PASSWORD)
                .withCommand("postgres", "-c", "max_connections=100", "-c", "fsync=off", "-c",
                        "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_wal_size=4GB");
        container.start();
        return container;
    }

    /** A started single-node KRaft Kafka container that creates topics as the embedded broker does. */
    static KafkaContainer startKafka() {
        requireDocker(TestInfrastructure::dockerAvailable);
        KafkaContainer container = new KafkaContainer(KAFKA_IMAGE)
                .withEnv("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "true")
                .withEnv("KAFKA_NUM_PARTITIONS", String.valueOf(EmbeddedKafkaBroker.PARTITIONS))
                .withEnv("KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS", "3")
                .withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");
        container.start();
        return container;
    }
}
