package dev.cardcatalog.job;

import static dev.cardcatalog.testing.TestUsers.asOperator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.hasItem;

import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.Jobs;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ScryfallStandIn.Fault;
import dev.cardcatalog.testing.ShortRetryProfile;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestDatabase;
import dev.cardcatalog.testing.TestKafka;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The retry policy's bounds on the real broker, with its durations shortened by configuration. */
@QuarkusTest
@TestProfile(ShortRetryProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class RetryPolicyFlowTest {

    private final ScryfallStandIn standIn = ScryfallStandIn.shared();

    @Inject
    MeterRegistry metrics;

    @BeforeEach
    void reset() {
        TestData.reset();
    }

    @Test
    void aRateLimitWithoutRetryAfterComesBackAfterTheMinimumDelay() {
        standIn.enqueue("/bulk-data", Fault.status(429), Fault.status(429), Fault.status(429));

        String jobId = Jobs.postRefresh("manual");
        JsonPath done = Jobs.awaitFinished(jobId);

        assertThat(done.getString("state")).isEqualTo("succeeded");
        assertThat(done.getList("runs")).hasSize(2);
        Instant failedAt = Instant.parse(done.getString("runs[1].finished_at"));
        Instant retriedAt = Instant.parse(done.getString("runs[0].started_at"));
        assertThat(Duration.between(failedAt, retriedAt)).isGreaterThanOrEqualTo(Duration.ofMillis(1950));
        var delayed = TestKafka.readAll("card-catalog.commands.delayed", Duration.ofSeconds(3)).stream()
                .filter(r -> new String(r.value(), StandardCharsets.UTF_8).contains(jobId)).toList();
        assertThat(delayed).hasSize(1);
        assertThat(delayed.get(0).headers().headers("retry-after-asked")).isEmpty();
    }

    @Test
    void theFourthRateLimitInARowWithoutProgressFailsTheJob() {
        for (int i = 0; i < 4; i++) {
            standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", "2"));
        }

        String jobId = Jobs.postRefresh("manual");
        JsonPath failed = Jobs.awaitFinished(jobId);

        assertThat(failed.getString("state")).isEqualTo("failed");
        assertThat(failed.getString("message")).startsWith("rate limited 4 times in a row without progress");
        assertThat(failed.getList("runs")).hasSize(4);
        assertThat(failed.getInt("retry_count")).isEqualTo(3);
        asOperator().queryParam("state", "failed").queryParam("kind", "refresh").get("/api/jobs").then().statusCode(200)
                .body("items.id", hasItem(jobId));
    }

    @Test
    void theSweepSendsAgainTheCommandOfAJobQueuedOrWaitingLongPastItsTime() {
        String queued = java.util.UUID.randomUUID().toString();
        TestDatabase.execute("INSERT INTO job (id, kind, trigger, state, source, command, created_at, updated_at) "
                + "VALUES (?::uuid, 'refresh', 'manual', 'queued', 'api', '{}', now() - interval '1 hour', "
                + "now() - interval '1 hour')", queued);

        assertThat(Jobs.awaitFinished(queued).getString("state")).isEqualTo("succeeded");

        String waiting = java.util.UUID.randomUUID().toString();
        TestDatabase.execute("INSERT INTO job (id, kind, trigger, state, retry_count, retry_at, source, command, "
                + "created_at, updated_at) VALUES (?::uuid, 'refresh', 'manual', 'waiting', 1, "
                + "now() - interval '1 hour', 'api', '{}', now() - interval '2 hours', now() - interval '1 hour')",
                waiting);

        JsonPath retried = Jobs.awaitFinished(waiting);
        assertThat(retried.getString("state")).isEqualTo("succeeded");
        assertThat(retried.getInt("retry_count")).isEqualTo(1);
    }

    @Test
    void rateLimitsSeparatedByProgressKeepGoing() {
        standIn.rotateVersions(); // every run downloads a new file: progress
        for (int i = 0; i < 5; i++) {
            standIn.enqueue("/sets", Fault.status(429).header("Retry-After", "2"));
        }

        String jobId = Jobs.postRefresh("manual");
        JsonPath done = Jobs.awaitState(jobId, Duration.ofSeconds(90), Jobs.FINISHED);

        assertThat(done.getString("state")).isEqualTo("succeeded");
        assertThat(done.getList("runs")).hasSize(6);
        assertThat(done.getInt("retry_count")).isEqualTo(5);
        assertThat(standIn.requests("/file/")).hasSize(6);
    }

    @Test
    void aReplayedCommandLeavesAWaitingJobWaitingAndTheDelayedCommandStillRunsItOnTime() {
        // 10 s: the replay must be sent and handled while the job waits, on a loaded machine too
        standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", "10"));
        double earlyBefore = earlyDeliveries();
        String jobId = Jobs.postRefresh("manual");
        JsonPath waiting = Jobs.awaitState(jobId, Duration.ofSeconds(30), Set.of("waiting"));
        assertThat(waiting.getInt("retry_count")).isEqualTo(1);
        Instant retryAt = Instant.parse(waiting.getString("retry_at"));

        // another service (or an attacker) writes the job's command straight to the commands topic, early
        TestKafka.send("card-catalog.commands", "refresh",
                ("{\"type\":\"refresh\",\"jobId\":\"" + jobId + "\",\"trigger\":\"manual\"}")
                        .getBytes(StandardCharsets.UTF_8),
                Map.of("retry-count", "1"));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> earlyDeliveries() > earlyBefore || Jobs.get(jobId).getList("runs").size() > 1);

        JsonPath afterReplay = Jobs.get(jobId);
        assertThat(Instant.now()).isBefore(retryAt); // the replay was handled while the job still waited
        assertThat(afterReplay.getString("state")).isEqualTo("waiting");
        assertThat(afterReplay.getInt("retry_count")).isEqualTo(1);
        assertThat(afterReplay.getList("runs")).hasSize(1);
        assertThat(earlyDeliveries()).isEqualTo(earlyBefore + 1);

        JsonPath done = Jobs.awaitFinished(jobId);
        assertThat(done.getString("state")).isEqualTo("succeeded");
        assertThat(done.getInt("retry_count")).isEqualTo(1);
        assertThat(done.getList("runs")).hasSize(2);
        assertThat(Instant.parse(done.getString("runs[0].started_at"))).isAfterOrEqualTo(retryAt);
    }

    private double earlyDeliveries() {
        var counter = metrics.find("jobs.commands.early").counter();
        return counter == null ? 0 : counter.count();
    }
}
