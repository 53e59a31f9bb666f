package dev.cardcatalog.testing;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A real single-node KRaft Kafka broker (combined broker and controller) from Kafka's own test kit, no Docker.
 *
 * <p>One per JVM through {@link #shared()} (with {@code -Ptestcontainers}, a Kafka container instead: see
 * {@link TestInfrastructure}). Topics are created by the service's clients on first use
 * ({@code auto.create.topics.enable}) with the partition count given here.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    /** Partitions of an auto-created topic: more than one, so partition-level behaviour is exercised. */
    public static final int PARTITIONS = 3;

    /** The system property holding the bootstrap servers of the JVM's broker (see EmbeddedPostgresServer). */
    static final String BOOTSTRAP_PROPERTY = "card-catalog.test.kafka.bootstrap";

    private static EmbeddedKafkaBroker shared;
    private static Thread stopHook;

    /** The broker, when this instance started it; null for a handle on one another class loader started. */
    private final KafkaClusterTestKit cluster;
    /** The Testcontainers container, when this instance started one. */
    private final AutoCloseable container;
    private final String bootstrapServers;

    private EmbeddedKafkaBroker(KafkaClusterTestKit cluster, String bootstrapServers) {
        this(cluster, null, bootstrapServers);
    }

    private EmbeddedKafkaBroker(KafkaClusterTestKit cluster, AutoCloseable container, String bootstrapServers) {
        this.cluster = cluster;
        this.container = container;
        this.bootstrapServers = bootstrapServers;
    }

    /** The JVM's broker, started on first use (by whichever class loader comes first); stopped at exit. */
    public static EmbeddedKafkaBroker shared() {
        synchronized (System.getProperties()) {
            if (shared == null) {
                String bootstrap = System.getProperty(BOOTSTRAP_PROPERTY);
                if (bootstrap != null) {
                    shared = new EmbeddedKafkaBroker(null, bootstrap);
                } else {
                    if (TestInfrastructure.testcontainers()) {
                        var container = TestInfrastructure.startKafka();
                        shared = new EmbeddedKafkaBroker(null, container, container.getBootstrapServers());
                    } else {
                        shared = start(null);
                    }
                    System.setProperty(BOOTSTRAP_PROPERTY, shared.bootstrapServers());
                    stopHook = new Thread(shared::closeQuietly, "embedded-kafka-stop");
                    Runtime.getRuntime().addShutdownHook(stopHook);
                }
            }
            return shared;
        }
    }

    /**
     * Stops the JVM's broker now, if this class loader started it, instead of in a shutdown hook beside the JVM's
     * other hooks (see {@link StopSharedInfrastructure}).
     */
    public static void stopShared() {
        synchronized (System.getProperties()) {
            if (shared != null && (shared.cluster != null || shared.container != null)) {
                try {
                    Runtime.getRuntime().removeShutdownHook(stopHook);
                } catch (IllegalStateException exiting) {
                    return; // the hook runs anyway
                }
                shared.closeQuietly();
                shared = null;
            }
        }
    }

    /**
     * Starts a broker.
     *
     * <p>A throwaway directory is made here, in {@code java.io.tmpdir}, and deleted by {@link #close()} once the
     * broker has stopped. Kafka's test kit would otherwise make it with its {@code TestUtils.tempDirectory}, which
     * deletes it from a shutdown hook of its own: at the JVM's exit that hook ran beside the one that stops the
     * broker, and a broker that wrote to its logs after they were gone ended the JVM with status 1 (reproduced
     * outside the suite; Kafka halts when its log directories fail). Surefire then failed the build ("Error occurred in starting fork") after every test had passed. For
     * the same reason a broker's wish to halt or exit the test JVM is printed instead ({@link #keepTheJvm()}).
     *
     * @param baseDirectory where its logs live, kept on close; null for a throwaway directory deleted on close
     */
    public static EmbeddedKafkaBroker start(Path baseDirectory) {
        keepTheJvm();
        try {
            TestKitNodes.Builder nodes = new TestKitNodes.Builder()
                    .setCombined(true)
                    .setNumBrokerNodes(1)
                    .setNumControllerNodes(1)
                    .setBootstrapMetadataVersion(MetadataVersion.latestProduction());
            nodes.setBaseDirectory(baseDirectory != null ? baseDirectory
                    : java.nio.file.Files.createTempDirectory("embedded-kafka-"));
            KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(nodes.build())
                    .setConfigProp("offsets.topic.replication.factor", "1")
                    .setConfigProp("offsets.topic.num.partitions", "3")
                    .setConfigProp("transaction.state.log.replication.factor", "1")
                    .setConfigProp("transaction.state.log.min.isr", "1")
                    .setConfigProp("share.coordinator.state.topic.replication.factor", "1")
                    .setConfigProp("share.coordinator.state.topic.min.isr", "1")
                    .setConfigProp("group.initial.rebalance.delay.ms", "0")
                    .setConfigProp("auto.create.topics.enable", "true")
                    .setConfigProp("num.partitions", String.valueOf(PARTITIONS))
                    .setConfigProp("default.replication.factor", "1")
                    .setConfigProp("min.insync.replicas", "1")
                    .setDeleteOnClose(baseDirectory == null)
                    .build();
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            return new EmbeddedKafkaBroker(cluster, cluster.bootstrapServers());
        } catch (Exception e) {
            throw new IllegalStateException("could not start the embedded Kafka broker", e);
        }
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /**
     * Waits until consumer group {@code groupId} is stable with every partition of its topic assigned: a service's
     * consumer has joined (the broker delays a new group's first rebalance by 3 s) and would fetch a command at once.
     *
     * @throws IllegalStateException when it is not so within {@code atMost}
     */
    public void awaitStableGroup(String groupId, Duration atMost) {
        awaitStableGroup(groupId, -1, atMost);
    }

    /**
     * {@link #awaitStableGroup(String, Duration)} with exactly {@code members} members (any number when negative):
     * the consumers of processes that are gone (a killed one stays a member until its session times out) have left,
     * and those started have joined.
     */
    public void awaitStableGroup(String groupId, int members, Duration atMost) {
        long deadline = System.nanoTime() + atMost.toNanos();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            while (true) {
                ConsumerGroupDescription group;
                try {
                    group = admin.describeConsumerGroups(List.of(groupId)).all().get().get(groupId);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof org.apache.kafka.common.errors.GroupIdNotFoundException)) {
                        throw e;
                    }
                    // no consumer has joined yet on a fresh broker
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("consumer group " + groupId + " does not exist after "
                                + atMost, e);
                    }
                    Thread.sleep(100);
                    continue;
                }
                if (group.groupState() == GroupState.STABLE && group.members().stream()
                        .anyMatch(member -> !member.assignment().topicPartitions().isEmpty())
                        && (members < 0 || group.members().size() == members)) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("consumer group " + groupId + " is " + group.groupState()
                            + " with " + group.members().size() + " members after " + atMost);
                }
                Thread.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for consumer group " + groupId, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not describe consumer group " + groupId, e);
        }
    }

    /**
     * Creates the service's four topics, partitioned as deploy/base/topics.yaml creates them (3, 3, 1 and 3), unless they
     * exist; as a deployment does, before the service starts. Otherwise the broker creates a topic at its first use,
     * and the service's consumer group rebalances then, about a second into the first command.
     */
    public void createServiceTopics() {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            Set<String> existing = admin.listTopics().names().get();
            List<NewTopic> topics = new ArrayList<>();
            Map<String, Integer> partitions = Map.of("card-catalog.commands", 3, "card-catalog.commands.delayed", 3,
                    "card-catalog.commands.dlq", 1, "card-catalog.events", 3);
            partitions.forEach((name, count) -> {
                if (!existing.contains(name)) {
                    topics.add(new NewTopic(name, count, (short) 1));
                }
            });
            admin.createTopics(topics).all().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating the topics", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not create the service's topics", e);
        }
    }

    /**
     * Stops the broker, as an outage would: clients are refused until {@link #restartBroker()}; the controller and the
     * data stay. Only for a broker this JVM started from the test kit.
     *
     * @throws IllegalStateException for a container or a broker another class loader started
     */
    public void stopBroker() {
        for (kafka.server.BrokerServer broker : testKit().brokers().values()) {
            broker.shutdown();
            broker.awaitShutdown();
        }
    }

    /** Starts the broker {@link #stopBroker()} stopped again, on the same port, and waits until it is ready. */
    public void restartBroker() {
        try {
            for (kafka.server.BrokerServer broker : testKit().brokers().values()) {
                broker.startup();
            }
            testKit().waitForReadyBrokers();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the broker did not start again", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the broker started again", e);
        }
    }

    /** Whether {@link #stopBroker()} works here: the broker is this JVM's, from the test kit. */
    public boolean stoppable() {
        return cluster != null;
    }

    private KafkaClusterTestKit testKit() {
        if (cluster == null) {
            throw new IllegalStateException("this broker is not one this JVM started from the test kit");
        }
        return cluster;
    }

    @Override
    public void close() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        if (container != null) {
            container.close();
        }
    }

    /**
     * Kafka's broker halts or exits the JVM on a fault it cannot go on from (a log directory gone, a fatal
     * controller fault); in a test JVM that kills every other test and hides the reason. This prints the status,
     * the broker's message and where it was asked, to standard error, and leaves the JVM running: the tests that
     * use the broker then fail on what they see.
     */
    private static void keepTheJvm() {
        org.apache.kafka.common.utils.Exit.Procedure print = (status, message) -> new IllegalStateException(
                "the embedded Kafka broker asked to end the test JVM with status " + status + ": " + message)
                .printStackTrace();
        org.apache.kafka.common.utils.Exit.setHaltProcedure(print);
        org.apache.kafka.common.utils.Exit.setExitProcedure(print);
    }

    private void closeQuietly() {
        try {
            close();
        } catch (Exception ignored) {
            // the JVM is exiting
        }
    }
}
