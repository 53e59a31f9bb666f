package dev.cardcatalog.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cardcatalog.testing.EmbeddedPostgresServer;
import dev.cardcatalog.testing.ServiceProcess;
import dev.cardcatalog.testing.TcpProxy;
import dev.cardcatalog.testing.TestDatabase;
import dev.cardcatalog.testing.TestKafka;
import dev.cardcatalog.testing.TestUsers;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Outages of the service's database hold work instead of dropping it (SERVICE.md §6.6): PostgreSQL cut off behind a
 * TCP proxy for longer than the command consumer used to try (five attempts over about 20 s, then the dead-letter
 * topic). Nothing is dead-lettered, the job runs once when the database is back, liveness stays UP throughout, and
 * a POST meanwhile answers 503 with {@code Retry-After}.
 */
class DatabaseOutageIT extends Outages {

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
}
