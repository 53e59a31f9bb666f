package dev.cardcatalog.job;

import static dev.cardcatalog.testing.TestUsers.asOperator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;

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
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A rate-limited refresh end to end: the run fails, the job waits, the command goes through the delayed topic and
 * comes back no sooner than Scryfall asked. With {@link ShortRetryProfile}'s numbers, the logic unchanged: a
 * Retry-After of 8 s is over its 1 s MAX_BACK_OFF and comes back after 8 s, as one of 40 s does over the default
 * 30 s (8 s leave a loaded machine time to see the job waiting). That rule with the default numbers is
 * RateLimitRetryTest's and RetryAfterTest's, with an injected clock.
 */
@QuarkusTest
@TestProfile(ShortRetryProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class RetryFlowTest {

    private final ScryfallStandIn standIn = ScryfallStandIn.shared();

    @BeforeEach
    void reset() {
        TestData.reset();
    }

    @Test
    void aRefreshAskedToWaitLongerThanTheClientWaitsComesBackThroughTheDelayedTopicNoSoonerAndApplies() {
        standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", "8"));

        String jobId = Jobs.postRefresh("manual");
        JsonPath waiting = Jobs.awaitState(jobId, Duration.ofSeconds(30), Set.of("waiting"));

        assertThat(waiting.getString("runs[0].status")).isEqualTo("failed");
        assertThat(waiting.getString("runs[0].message")).contains("429").contains("asking for 8 s");
        assertThat(waiting.getInt("retry_count")).isEqualTo(1);
        Instant failedAt = Instant.parse(waiting.getString("runs[0].finished_at"));
        Instant retryAt = Instant.parse(waiting.getString("retry_at"));
        assertThat(Duration.between(failedAt, retryAt)).isBetween(Duration.ofSeconds(7), Duration.ofSeconds(8));

        ConsumerRecord<String, byte[]> delayed = delayedRecordOf(jobId);
        assertThat(delayed.key()).isEqualTo("refresh");
        assertThat(headers(delayed, "retry-count")).containsExactly("1");
        assertThat(headers(delayed, "not-before")).containsExactly(String.valueOf(retryAt.toEpochMilli()));
        assertThat(headers(delayed, "retry-after-asked")).containsExactly("8");
        assertThat(headers(delayed, "retry-reason")).singleElement().asString().contains("429");

        JsonPath done = Jobs.awaitState(jobId, Duration.ofSeconds(75), Jobs.FINISHED);
        assertThat(done.getString("state")).isEqualTo("succeeded");
        assertThat(done.getList("runs")).hasSize(2);
        assertThat(Instant.parse(done.getString("runs[0].started_at"))).isAfterOrEqualTo(retryAt);
        List<ScryfallStandIn.RecordedRequest> asked = standIn.requests("/bulk-data");
        assertThat(asked).hasSize(2);
        assertThat(asked.get(1).receivedAt()).isAfterOrEqualTo(retryAt);
        assertThat(done.getLong("runs[0].counts.seen")).isEqualTo(ScryfallStandIn.SAMPLE_ENGLISH_PAPER_CARDS);
    }

    @Test
    void aWaitOverAnHourFailsTheJobAndSchedulesNothing() {
        standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", "7200"));

        String jobId = Jobs.postRefresh("manual");
        JsonPath failed = Jobs.awaitFinished(jobId);

        assertThat(failed.getString("state")).isEqualTo("failed");
        assertThat(failed.getString("message")).startsWith("Scryfall asked to wait 7200 s");
        assertThat(failed.getString("retry_at")).isNull();
        assertThat(TestKafka.readAll("card-catalog.commands.delayed", Duration.ofSeconds(2)))
                .noneMatch(record -> new String(record.value(), StandardCharsets.UTF_8).contains(jobId));
        asOperator().queryParam("state", "failed").get("/api/jobs").then().statusCode(200)
                .body("items.id", hasItem(jobId));
        JsonPath event = eventOf("job-failed", jobId);
        assertThat(event.getString("kind")).isEqualTo("refresh");
        assertThat(event.getString("reason")).startsWith("Scryfall asked to wait 7200 s");
    }

    @Test
    void runNowIsRefusedWhileTheQuietWindowIsOpenAndRunsAWaitingJobOnceItCloses() {
        standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", "40"));
        String jobId = Jobs.postRefresh("manual");
        Jobs.awaitState(jobId, Duration.ofSeconds(30), Set.of("waiting"));

        asOperator().contentType("application/json").post("/api/jobs/" + jobId + "/run-now").then().statusCode(409)
                .contentType("application/problem+json")
                .body("type", equalTo("https://card-catalog.dev/problems/quiet-window-open"))
                .body("quiet_until", notNullValue());

        TestDatabase.execute("DELETE FROM quiet_window"); // as if the window had closed
        asOperator().contentType("application/json").post("/api/jobs/" + jobId + "/run-now").then().statusCode(202);

        JsonPath done = Jobs.awaitFinished(jobId);
        assertThat(done.getString("state")).isEqualTo("succeeded");
        assertThat(Instant.parse(done.getString("finished_at")))
                .isBefore(Instant.parse(done.getString("runs[1].finished_at")).plusSeconds(39));
        asOperator().contentType("application/json").post("/api/jobs/" + jobId + "/run-now").then().statusCode(409)
                .body("type", equalTo("https://card-catalog.dev/problems/not-waiting"));
    }

    @Test
    void aFailedJobIsRetriedAsANewJob() {
        standIn.enqueue("/bulk-data", Fault.status(404));
        String failed = Jobs.postRefresh("manual");
        assertThat(Jobs.awaitFinished(failed).getString("state")).isEqualTo("failed");

        String retried = asOperator().contentType("application/json").post("/api/jobs/" + failed + "/retry").then().statusCode(202)
                .extract().jsonPath().getString("id");

        assertThat(retried).isNotEqualTo(failed);
        JsonPath job = Jobs.awaitFinished(retried);
        assertThat(job.getString("state")).isEqualTo("succeeded");
        assertThat(job.getString("source")).isEqualTo("retry of " + failed);
        asOperator().contentType("application/json").post("/api/jobs/" + retried + "/retry").then().statusCode(409)
                .body("type", equalTo("https://card-catalog.dev/problems/not-failed"));
        JsonPath event = eventOf("catalog-refreshed", retried);
        assertThat(event.getString("version")).isEqualTo(ScryfallStandIn.SAMPLE_VERSION);
        assertThat(event.getLong("counts.seen")).isEqualTo(ScryfallStandIn.SAMPLE_ENGLISH_PAPER_CARDS);
    }

    private static ConsumerRecord<String, byte[]> delayedRecordOf(String jobId) {
        List<ConsumerRecord<String, byte[]>> records = TestKafka.readAll("card-catalog.commands.delayed",
                Duration.ofSeconds(5)).stream()
                .filter(record -> new String(record.value(), StandardCharsets.UTF_8).contains(jobId))
                .toList();
        assertThat(records).hasSize(1);
        return records.get(0);
    }

    private static JsonPath eventOf(String type, String jobId) {
        List<JsonPath> events = TestKafka.readAll("card-catalog.events", Duration.ofSeconds(5)).stream()
                .filter(record -> type.equals(record.key()))
                .map(record -> new JsonPath(new String(record.value(), StandardCharsets.UTF_8)))
                .filter(event -> jobId.equals(event.getString("jobId")))
                .toList();
        assertThat(events).hasSize(1);
        assertThat(events.get(0).getString("type")).isEqualTo(type);
        return events.get(0);
    }

    private static List<String> headers(ConsumerRecord<String, byte[]> record, String name) {
        java.util.List<String> values = new java.util.ArrayList<>();
        for (Header header : record.headers().headers(name)) {
            values.add(new String(header.value(), StandardCharsets.UTF_8));
        }
        return values;
    }
}
