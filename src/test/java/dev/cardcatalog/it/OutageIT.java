package dev.cardcatalog.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cardcatalog.testing.EmbeddedKafkaBroker;
import dev.cardcatalog.testing.EmbeddedPostgresServer;
import dev.cardcatalog.testing.PrometheusText;
import dev.cardcatalog.testing.ServiceProcess;
import dev.cardcatalog.testing.TcpProxy;
import dev.cardcatalog.testing.TestDatabase;
import dev.cardcatalog.testing.TestKafka;
import dev.cardcatalog.testing.TestUsers;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Outages of the service's own infrastructure hold work instead of dropping it (SERVICE.md §6.6): PostgreSQL cut
 * off behind a TCP proxy, and the Kafka broker stopped, each for longer than the command consumer used to try
 * (five attempts over about 20 s, then the dead-letter topic). Nothing is dead-lettered, the job runs once when the
 * infrastructure is back, liveness stays UP throughout, and a POST meanwhile answers 503 with {@code Retry-After}.
 */
class OutageIT {

    /**
     * The 30 s, longer than the 20 s the consumer used to try before it dead-lettered a command it could not
     * register; the system property {@code card-catalog.test.outage-seconds} sets another length (75 to outlast the throttled
     * commit strategy's 60 s age check, which the command channel has off).
     */
    private static final Duration OUTAGE = Duration.ofSeconds(Long.getLong("card-catalog.test.outage-seconds", 30));

    /** Short back-offs, so that the outage spans many tries. */
    private static final Map<String, String> SHORT_BACK_OFF = Map.of(
            "card-catalog.outage.first-back-off", "200ms",
            "card-catalog.outage.max-back-off", "1s",
            "card-catalog.jobs.publish-timeout", "2s",
            "quarkus.log.category.\"dev.cardcatalog.job.DelayRelay\".level", "DEBUG");

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** The short back-offs, with the service's database reached through {@code proxy}, which a test can cut. */
    private static Map<String, String> throughProxy(TcpProxy proxy) {
        Map<String, String> config = new HashMap<>(SHORT_BACK_OFF);
        String through = "127.0.0.1:" + proxy.port() + "/" + EmbeddedPostgresServer.DATABASE;
        config.put("quarkus.datasource.jdbc.url", "jdbc:postgresql://" + through);
        config.put("quarkus.datasource.reactive.url", "postgresql://" + through);
        return config;
    }

    @Test
    void aCommandArrivingWhilePostgresIsDownIsHeldAndRunsOnceItIsBack() throws Exception {
        EmbeddedPostgresServer postgres = EmbeddedPostgresServer.shared();
        try (Instances instances = new Instances();
                TcpProxy proxy = TcpProxy.start(postgres.host(), postgres.port())) {
            Map<String, String> config = throughProxy(proxy);
            ServiceProcess service = instances.start("db-outage", config);
            instances.awaitConsumers();

            try (Liveness liveness = new Liveness(service)) {
                proxy.cut();
                long cutAt = System.nanoTime();
                await("readiness DOWN").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                        .until(() -> status(service.managementUrl() + "/health/ready") == 503);

                String jobId = UUID.randomUUID().toString();
                String command = "{\"type\":\"refresh\",\"jobId\":\"" + jobId + "\",\"trigger\":\"api\"}";
                TestKafka.send("card-catalog.commands", "refresh", command.getBytes(StandardCharsets.UTF_8),
                        Map.of());
                await("the consumer to hold the command").atMost(Duration.ofSeconds(20))
                        .until(() -> heldAttempts(instances.log("db-outage")) >= 1);

                for (String start : List.of("/api/refreshes", "/api/art-builds")) {
                    HttpResponse<String> refused = post(service, start);
                    assertThat(refused.statusCode()).as(start + ": " + refused.body()).isEqualTo(503);
                    assertThat(refused.headers().firstValue("Content-Type")).as(start)
                            .hasValue("application/problem+json");
                    assertThat(refused.headers().firstValue("Retry-After")).as(start).hasValue("1");
                    assertThat(refused.body()).as(start).contains("/problems/database-unavailable")
                            .contains("\"retry_after\":1");
                }
                for (String read : List.of("/api/jobs", "/admin")) {
                    HttpResponse<String> unavailable = get(service, read);
                    assertThat(unavailable.statusCode()).as(read + ": " + unavailable.body()).isEqualTo(503);
                    assertThat(unavailable.headers().firstValue("Retry-After")).as(read).hasValue("1");
                    assertThat(unavailable.body()).as(read).contains("/problems/database-unavailable");
                }
                // a person's browser on the admin page gets the same 503 as a page that says so and reloads itself
                HttpResponse<String> page = HTTP.send(HttpRequest.newBuilder(URI.create(service.baseUrl() + "/admin"))
                        .header("Authorization", TestUsers.OPERATOR_AUTHORIZATION)
                        .header("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
                        .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
                assertThat(page.statusCode()).as(page.body()).isEqualTo(503);
                assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=UTF-8");
                assertThat(page.headers().firstValue("Retry-After")).hasValue("1");
                assertThat(page.body()).contains("The database is unavailable")
                        .contains("<meta http-equiv=\"refresh\" content=\"1; url=/admin\">");

                await("the command to be held a while").atMost(Duration.ofSeconds(20))
                        .until(() -> metric(service, "jobs_commands_held_seconds") >= 5);
                sleepUntil(cutAt + OUTAGE.toNanos());
                assertThat(status(service.managementUrl() + "/health/ready")).isEqualTo(503);
                int attempts = heldAttempts(instances.log("db-outage"));
                assertThat(attempts).as("tries while PostgreSQL was down").isGreaterThan(5);
                proxy.restore();

                await("the job to succeed").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                        .until(() -> "succeeded".equals(TestDatabase.value(
                                "SELECT state FROM job WHERE id = ?::uuid", jobId)));
                await("readiness UP").atMost(Duration.ofSeconds(20))
                        .until(() -> status(service.managementUrl() + "/health/ready") == 200);
                assertThat(TestDatabase.count("SELECT count(*) FROM job_run WHERE job_id = ?::uuid", jobId))
                        .isEqualTo(1);
                assertThat(TestDatabase.count("SELECT count(*) FROM job")).as("the refused POSTs wrote nothing")
                        .isEqualTo(1);
                assertThat(TestKafka.withValue("card-catalog.commands.dlq", command)).isEmpty();
                assertThat(metric(service, "jobs_commands_held_seconds")).isZero();
                assertThat(liveness.failures()).as("liveness failures, as Kubernetes counts them").isEmpty();
                assertThat(liveness.checks()).isGreaterThan(20);
            }
        }
    }

    @Test
    void aCommandHeldByAnInstanceThatStopsIsRunByTheNextOne() throws Exception {
        EmbeddedPostgresServer postgres = EmbeddedPostgresServer.shared();
        try (Instances instances = new Instances();
                TcpProxy proxy = TcpProxy.start(postgres.host(), postgres.port())) {
            Map<String, String> config = throughProxy(proxy);
            ServiceProcess first = instances.start("held-1", config);
            instances.awaitConsumers();

            proxy.cut();
            String jobId = UUID.randomUUID().toString();
            TestKafka.send("card-catalog.commands", "refresh",
                    ("{\"type\":\"refresh\",\"jobId\":\"" + jobId + "\"}").getBytes(StandardCharsets.UTF_8),
                    Map.of());
            await("the first instance to hold the command").atMost(Duration.ofSeconds(20))
                    .until(() -> heldAttempts(instances.log("held-1")) >= 2);
            first.close();
            assertThat(lines(instances.log("held-1"))).as("the first instance's log")
                    .anyMatch(line -> line.contains("left for another instance: this one stopped while the database"
                            + " was unavailable"));
            proxy.restore();

            // nothing was committed past the held record: the next instance in the group reads it again
            instances.start("held-2", config);
            await("the job to succeed").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                    .until(() -> "succeeded".equals(TestDatabase.value("SELECT state FROM job WHERE id = ?::uuid",
                            jobId)));
            assertThat(TestDatabase.count("SELECT count(*) FROM job_run WHERE job_id = ?::uuid", jobId))
                    .isEqualTo(1);
        }
    }

    @Test
    void aPostAndADelayedCommandDuringABrokerOutageLoseNothing() throws Exception {
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.shared();
        assumeTrue(broker.stoppable(), "the broker is a container here, which this test does not stop");
        try (Instances instances = new Instances()) {
            ServiceProcess service = instances.start("broker-outage", SHORT_BACK_OFF);
            instances.awaitConsumers();

            // a refresh waiting for its retry, whose delayed command the relay holds until it is due
            String waiting = UUID.randomUUID().toString();
            String delayed = "{\"type\":\"refresh\",\"jobId\":\"" + waiting + "\"}";
            long due = System.currentTimeMillis() + 8_000;
            TestKafka.send("card-catalog.commands.delayed", "refresh", delayed.getBytes(StandardCharsets.UTF_8),
                    Map.of("retry-count", "1", "not-before", String.valueOf(due)));
            await("the relay to hold the delayed command").atMost(Duration.ofSeconds(20))
                    .until(() -> relayHeld(instances.log("broker-outage")) >= 1);

            String refusedJob;
            String refusedArtJob;
            boolean restarted = false;
            try (Liveness liveness = new Liveness(service)) {
                broker.stopBroker();
                long stoppedAt = System.nanoTime();
                try {
                    HttpResponse<String> refused = post(service, "/api/refreshes");
                    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
                    assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
                    assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
                    assertThat(refused.body()).contains("/problems/kafka-unavailable");
                    refusedJob = jobId(refused.body());
                    HttpResponse<String> refusedArt = post(service, "/api/art-builds");
                    assertThat(refusedArt.statusCode()).as(refusedArt.body()).isEqualTo(503);
                    assertThat(refusedArt.headers().firstValue("Retry-After")).hasValue("1");
                    assertThat(refusedArt.body()).contains("/problems/kafka-unavailable");
                    refusedArtJob = jobId(refusedArt.body());
                    await("readiness DOWN").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                            .until(() -> status(service.managementUrl() + "/health/ready") == 503);
                    assertThat(TestDatabase.value("SELECT state FROM job WHERE id = ?::uuid", refusedJob))
                            .isEqualTo("failed");
                    // the job that waits for its retry, as the ledger has it before its delayed command comes back
                    TestDatabase.execute("INSERT INTO job (id, kind, trigger, state, retry_count, retry_at, source,"
                            + " command, created_at, updated_at) VALUES (?::uuid, 'refresh', 'api', 'waiting', 1,"
                            + " to_timestamp(? / 1000.0), 'api', '{}', now(), now())", waiting, due);
                    sleepUntil(stoppedAt + OUTAGE.toNanos());
                    assertThat(System.currentTimeMillis()).as("the outage outlasts the relay's wait")
                            .isGreaterThan(due + 10_000);
                } finally {
                    broker.restartBroker();
                    restarted = true;
                }

                await("the waiting job to succeed").atMost(Duration.ofSeconds(180))
                        .pollInterval(Duration.ofMillis(500))
                        .until(() -> "succeeded".equals(TestDatabase.value(
                                "SELECT state FROM job WHERE id = ?::uuid", waiting)));
                await("readiness UP").atMost(Duration.ofSeconds(30))
                        .until(() -> status(service.managementUrl() + "/health/ready") == 200);
                assertThat(liveness.failures()).as("liveness failures, as Kubernetes counts them").isEmpty();
            } finally {
                if (!restarted) {
                    broker.restartBroker();
                }
            }
            assertThat(TestDatabase.count("SELECT count(*) FROM job_run WHERE job_id = ?::uuid", waiting))
                    .isEqualTo(1);
            assertThat(TestKafka.withValue("card-catalog.commands.dlq", delayed)).isEmpty();
            // the refused POSTs' commands reach Kafka late (the producer kept them): they run nothing, and block
            // nothing
            for (String refused : List.of(refusedJob, refusedArtJob)) {
                await("the late command of " + refused).atMost(Duration.ofSeconds(60)).until(() -> lines(
                        instances.log("broker-outage")).stream().anyMatch(line -> line.contains("for job " + refused
                        + " (retry-count 0) ignored: the job is failed")));
            }
            for (String refused : List.of(refusedJob, refusedArtJob)) {
                assertThat(TestDatabase.count("SELECT count(*) FROM job_run WHERE job_id = ?::uuid", refused))
                        .isZero();
                assertThat(TestDatabase.value("SELECT state FROM job WHERE id = ?::uuid", refused))
                        .isEqualTo("failed");
                assertThat((String) TestDatabase.value("SELECT message FROM job WHERE id = ?::uuid", refused))
                        .startsWith("the command could not be published to Kafka");
            }
            HttpResponse<String> accepted = post(service, "/api/refreshes");
            assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
            String next = jobId(accepted.body());
            await("the next job to succeed").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                    .until(() -> "succeeded".equals(TestDatabase.value(
                            "SELECT state FROM job WHERE id = ?::uuid", next)));
            assertThat(TestDatabase.count("SELECT count(*) FROM job_run WHERE job_id = ?::uuid", refusedJob))
                    .isZero();
        }
    }

    @Test
    void aDelayedCommandTheRelayCannotForwardIsHeldThroughABrokerOutage() throws Exception {
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.shared();
        assumeTrue(broker.stoppable(), "the broker is a container here, which this test does not stop");
        try (Instances instances = new Instances()) {
            Map<String, String> config = new HashMap<>(SHORT_BACK_OFF);
            // the producer gives a record up after a few seconds instead of two minutes, so that the relay's own
            // hold, not the producer's, carries the delayed command through the outage
            config.put("mp.messaging.outgoing.commands-out.max.block.ms", "2000");
            config.put("mp.messaging.outgoing.commands-out.request.timeout.ms", "2000");
            config.put("mp.messaging.outgoing.commands-out.delivery.timeout.ms", "3000");
            ServiceProcess service = instances.start("relay-outage", config);
            instances.awaitConsumers();

            String waiting = UUID.randomUUID().toString();
            String delayed = "{\"type\":\"refresh\",\"jobId\":\"" + waiting + "\"}";
            long due = System.currentTimeMillis() + 5_000;
            TestDatabase.execute("INSERT INTO job (id, kind, trigger, state, retry_count, retry_at, source, command,"
                    + " created_at, updated_at) VALUES (?::uuid, 'refresh', 'api', 'waiting', 1,"
                    + " to_timestamp(? / 1000.0), 'api', '{}', now(), now())", waiting, due);
            TestKafka.send("card-catalog.commands.delayed", "refresh", delayed.getBytes(StandardCharsets.UTF_8),
                    Map.of("retry-count", "1", "not-before", String.valueOf(due)));
            await("the relay to hold the delayed command").atMost(Duration.ofSeconds(20))
                    .until(() -> relayHeld(instances.log("relay-outage")) >= 1);

            try (Liveness liveness = new Liveness(service)) {
                broker.stopBroker();
                long stoppedAt = System.nanoTime();
                try {
                    sleepUntil(stoppedAt + OUTAGE.toNanos());
                    assertThat(relayRetries(instances.log("relay-outage"))).as("the relay's tries to forward")
                            .isGreaterThan(2);
                } finally {
                    broker.restartBroker();
                }
                await("the waiting job to succeed").atMost(Duration.ofSeconds(180))
                        .pollInterval(Duration.ofMillis(500))
                        .until(() -> "succeeded".equals(TestDatabase.value(
                                "SELECT state FROM job WHERE id = ?::uuid", waiting)));
                assertThat(liveness.failures()).as("liveness failures, as Kubernetes counts them").isEmpty();
            }
            assertThat(TestDatabase.count("SELECT count(*) FROM job_run WHERE job_id = ?::uuid", waiting))
                    .isEqualTo(1);
            assertThat(TestKafka.withValue("card-catalog.commands.dlq", delayed)).isEmpty();
        }
    }

    /**
     * Polls {@code /q/health/live} every 250 ms while open and keeps its failures, judged as Kubernetes judges its
     * liveness probe, which restarts the pod only after {@code failureThreshold} (default 3) failed probes in a row:
     * a failure is an answer other than 200 (the service saying it is not live, which no outage may cause), or no
     * answer within 5 s three polls in a row (15 s at least). One poll unanswered is a loaded machine's stall, which
     * Kubernetes would try again, not the service's state. The deployment's probe (deploy/base/deployment.yaml) comes
     * every 20 s with the default 1 s timeout, so three failures there span 40 s: this check is the stricter in time.
     */
    private static final class Liveness implements AutoCloseable {
        /** Kubernetes' default failureThreshold of a probe (deploy/base/deployment.yaml sets none). */
        private static final int UNANSWERED_IN_A_ROW = 3;
        private final List<String> failures = new CopyOnWriteArrayList<>();
        private final AtomicInteger checks = new AtomicInteger();
        private final Thread polling;
        private volatile boolean open = true;

        Liveness(ServiceProcess service) {
            polling = new Thread(() -> {
                int unanswered = 0;
                while (open) {
                    int status = status(service.managementUrl() + "/health/live");
                    checks.incrementAndGet();
                    unanswered = status == -1 ? unanswered + 1 : 0;
                    if (status != 200 && status != -1 || unanswered == UNANSWERED_IN_A_ROW) {
                        failures.add(status + " at " + Instant.now()
                                + (status == -1 ? " (" + UNANSWERED_IN_A_ROW + " polls unanswered in a row)" : ""));
                    }
                    sleep(250);
                }
            }, "liveness-poll");
            polling.setDaemon(true);
            polling.start();
        }

        List<String> failures() {
            return failures;
        }

        int checks() {
            return checks.get();
        }

        @Override
        public void close() throws InterruptedException {
            open = false;
            polling.join(5_000);
        }
    }

    private static HttpResponse<String> post(ServiceProcess service, String path) throws IOException,
            InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(service.baseUrl() + path))
                .header("Authorization", TestUsers.OPERATOR_AUTHORIZATION)
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(ServiceProcess service, String path) throws IOException,
            InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(service.baseUrl() + path))
                .header("Authorization", TestUsers.OPERATOR_AUTHORIZATION)
                .timeout(Duration.ofSeconds(30))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int status(String url) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** A gauge's value on the service's {@code /q/metrics}; -1 when absent. */
    private static double metric(ServiceProcess service, String name) throws IOException, InterruptedException {
        String text = HTTP.send(HttpRequest.newBuilder(URI.create(service.managementUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher value = PrometheusText.series(name).matcher(text);
        return value.find() ? Double.parseDouble(value.group(2)) : -1;
    }

    private static String jobId(String body) {
        Matcher id = Pattern.compile("\"(?:job_)?id\":\"([0-9a-f-]{36})\"").matcher(body);
        assertThat(id.find()).as(body).isTrue();
        return id.group(1);
    }

    /** The highest attempt the consumer's log says it held a command at; 0 when none. */
    private static int heldAttempts(Path log) throws IOException {
        Pattern held = Pattern.compile("command card-catalog\\.commands/\\S+ held, attempt (\\d+)");
        int highest = 0;
        for (String line : lines(log)) {
            Matcher found = held.matcher(line);
            if (found.find()) {
                highest = Math.max(highest, Integer.parseInt(found.group(1)));
            }
        }
        return highest;
    }

    /** How many delayed records the relay's log says it holds. */
    private static long relayHeld(Path log) throws IOException {
        return lines(log).stream().filter(line -> line.contains("delayed command card-catalog.commands.delayed/")
                && line.contains(" held until ")).count();
    }

    /** How many times the relay's log says it could not forward a delayed record and holds it. */
    private static long relayRetries(Path log) throws IOException {
        return lines(log).stream().filter(line -> line.contains("could not be forwarded")
                && line.contains("held, trying again in")).count();
    }

    private static List<String> lines(Path log) throws IOException {
        return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
    }

    private static void sleepUntil(long nanoTime) {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            sleep(left / 1_000_000);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
