package dev.cardcatalog.it;

import dev.cardcatalog.testing.EmbeddedKafkaBroker;
import dev.cardcatalog.testing.EmbeddedPostgresServer;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ServiceProcess;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestKafka;
import dev.cardcatalog.testing.TestUsers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Instances of the packaged service, each its own process, against this JVM's embedded PostgreSQL and Kafka broker
 * and the stand-in: for behaviour that needs several replicas or a killed process.
 */
final class Instances implements AutoCloseable {

    private final List<ServiceProcess> started = new ArrayList<>();
    /** This JVM's instances' data directories and logs (failsafe's forks each have their own). */
    static final Path ROOT = TestData.perJvm("target/it-instances");

    private final Path root = ROOT;

    Instances() {
        TestData.resetWithoutService();
        // commands an earlier test left on the topics would otherwise register jobs in the emptied ledger
        TestKafka.discardRecords("card-catalog.commands", "card-catalog.commands.delayed");
        TestData.deleteTree(root);
        try {
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts an instance named {@code name} with these properties on top of the infrastructure's, and the test users
     * as environment variables, the way the Kubernetes Secret supplies them.
     */
    ServiceProcess start(String name, Map<String, String> overrides) {
        return start(name, overrides, Map.of());
    }

    /** {@link #start(String, Map)} with environment variables of its own (Quarkus's {@code QUARKUS_*} keys). */
    ServiceProcess start(String name, Map<String, String> overrides, Map<String, String> environment) {
        // C1 only: most of a test process's life is its start, and C2 compiling the start's code is most of that;
        // measured on two ITs alone (docs/benchmarks.md, "Test suite"), 10 s of CPU a start saved with refreshes
        // only and 69 s in ArtBuildKillIT with its art builds. HostileUploadsIT runs the Deployment's options.
        return start(name, overrides, environment, List.of("-Xmx256m", "-XX:TieredStopAtLevel=1"));
    }

    /** {@link #start(String, Map, Map)} with these JVM options instead of {@code -Xmx256m -XX:TieredStopAtLevel=1}. */
    ServiceProcess start(String name, Map<String, String> overrides, Map<String, String> environment,
            List<String> jvmOptions) {
        Map<String, String> config = ServiceProcess.infrastructure(EmbeddedPostgresServer.shared(),
                EmbeddedKafkaBroker.shared(), ScryfallStandIn.shared());
        config.put("card-catalog.data-dir", root.resolve(name).toAbsolutePath().toString());
        // art builds only where a test asks for them
        config.put("card-catalog.art.enabled", "false");
        // an upload's deadline is wall-clock time, and four IT forks share the machine: as in the test profile,
        // room for a loaded machine (HostileUploadsIT sets its own, to test it)
        config.put("card-catalog.art.upload-deadline", "30s");
        // the match warm-up (about 5 s of CPU a start) only where a test matches photos
        config.put("card-catalog.art.match-warm-up-passes", "0");
        // and no refresh warm-up (20,000 records parsed at every start: RefreshWarmUpTest tests it), as in the
        // test profile: the ITs' service starts are most of their CPU, and three forks share two cores
        config.put("card-catalog.catalog.warm-up-records", "0");
        config.putAll(overrides);
        Map<String, String> variables = new java.util.HashMap<>(TestUsers.environment());
        variables.putAll(environment);
        ServiceProcess service = ServiceProcess.start(0, jvmOptions, config, variables,
                root.resolve(name + ".log"), Duration.ofMinutes(2));
        started.add(service);
        return service;
    }

    /**
     * Waits until the consumer groups of the commands and of the delay relay are stable with one member for each
     * started instance still alive: a process an earlier test killed stays a member until its session times out
     * (45 s), and a command sent meanwhile waits for the rebalance.
     */
    void awaitConsumers() {
        int alive = (int) started.stream().filter(service -> service.process().isAlive()).count();
        for (String group : List.of("card-catalog", "card-catalog-relay")) {
            EmbeddedKafkaBroker.shared().awaitStableGroup(group, alive, Duration.ofSeconds(90));
        }
    }

    /** The data directory of the instance named {@code name}. */
    Path dataDirectory(String name) {
        return root.resolve(name);
    }

    /** Where the instance named {@code name} writes its output. */
    Path log(String name) {
        return root.resolve(name + ".log");
    }

    @Override
    public void close() {
        started.forEach(ServiceProcess::close);
        keepLogs();
    }

    /**
     * Copies the instances' logs to {@code target/it-logs/<the IT's class>/<its test method>/}, since the next test
     * of this fork deletes {@link #ROOT}: a failed test's service output stays to be read after the suite, beside
     * those of the class's other tests.
     */
    private void keepLogs() {
        String test = StackWalker.getInstance().walk(frames -> frames.filter(f -> f.getClassName().endsWith("IT"))
                .findFirst())
                .map(f -> f.getClassName().substring(f.getClassName().lastIndexOf('.') + 1) + "/" + f.getMethodName())
                .orElse("instances");
        Path kept = Path.of("target", "it-logs", test);
        try (java.util.stream.Stream<Path> files = Files.list(root)) {
            Files.createDirectories(kept);
            for (Path log : files.filter(file -> file.getFileName().toString().endsWith(".log")).toList()) {
                Files.copy(log, kept.resolve(log.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            System.err.println("the instances' logs could not be kept in " + kept + ": " + e);
        }
    }
}
