package dev.cardcatalog.job;

import static dev.cardcatalog.testing.TestUsers.asOperator;
import static dev.cardcatalog.testing.TestUsers.asViewer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import dev.cardcatalog.testing.ShortRetryProfile;
import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.Jobs;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ScryfallStandIn.Fault;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestDatabase;
import dev.cardcatalog.testing.TestKafka;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An operator's cancel through the API (SERVICE.md §6.6), for queued, waiting and running jobs of both kinds: a
 * queued or waiting job is cancelled at once and frees its kind's place; a running one stops at its next checkpoint
 * and ends cancelled, leaving what it wrote; a delayed record or a replayed command that arrives afterwards changes
 * nothing and is counted; a job already ended is a 409 naming its state. Each cancel sends a {@code job-cancelled}
 * event naming who cancelled.
 */
@QuarkusTest
@TestProfile(ShortRetryProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class CancelFlowTest {

    private static final Set<String> ENDED = Set.of("succeeded", "skipped", "failed", "cancelled");

    private final ScryfallStandIn standIn = ScryfallStandIn.shared();

    @Inject
    JobLedger ledger;

    @Inject
    MeterRegistry metrics;

    @BeforeEach
    void reset() {
        TestData.reset();
    }

    /** A run a test left going would come back as an unexpected job in flight in the next test. */
    @AfterEach
    void letRunsEnd() {
        Jobs.awaitWhileMoving(Duration.ofSeconds(120), "the jobs a test left going to end",
                () -> TestDatabase.count("SELECT count(*) FROM job WHERE state IN ('queued', 'running', 'waiting')")
                        == 0);
    }

    @Test
    void aQueuedRefreshIsCancelledAtOnceFreesItsPlaceAndAReplayedCommandChangesNothing() {
        JobLedger.JobRecord queued = ledger.createQueued(JobKind.REFRESH, JobTrigger.MANUAL, "api");
        String id = queued.id().toString();

        JsonPath cancelled = cancel(id, 200);
        assertThat(cancelled.getString("state")).isEqualTo("cancelled");
        assertThat(cancelled.getString("cancelled_by")).isEqualTo("operator");
        assertThat(cancelled.getString("cancel_requested_at")).isNotNull();
        assertThat(cancelled.getString("finished_at")).isNotNull();
        assertThat(cancelled.getString("message")).isEqualTo("cancelled by operator while queued");
        assertThat(cancelled.getList("runs")).isEmpty();
        JsonPath event = eventOf(id);
        assertThat(event.getString("kind")).isEqualTo("refresh");
        assertThat(event.getString("cancelledBy")).isEqualTo("operator");
        assertThat(event.getString("from")).isEqualTo("queued");

        // the place is free: a new refresh is accepted at once, and runs
        String next = Jobs.postRefresh("manual");
        assertThat(Jobs.awaitState(next, Duration.ofSeconds(60), ENDED).getString("state")).isEqualTo("succeeded");

        // its command, replayed, changes nothing and is counted
        double before = forCancelled();
        TestKafka.send("card-catalog.commands", "refresh",
                "{\"type\":\"refresh\",\"jobId\":\"" + id + "\",\"trigger\":\"manual\"}");
        await().atMost(Duration.ofSeconds(15)).until(() -> forCancelled() > before);
        JsonPath after = Jobs.get(id);
        assertThat(after.getString("state")).isEqualTo("cancelled");
        assertThat(after.getList("runs")).isEmpty();

        // a job already ended: 409 naming its state
        asOperator().contentType("application/json").post("/api/jobs/" + id + "/cancel").then().statusCode(409)
                .contentType("application/problem+json")
                .body("type", equalTo("https://card-catalog.dev/problems/job-finished"))
                .body("state", equalTo("cancelled"))
                .body("detail", equalTo("Job " + id + " is cancelled; only a queued, waiting or running job can be"
                        + " cancelled."));
        asOperator().contentType("application/json").post("/api/jobs/" + next + "/cancel").then().statusCode(409).body("state", equalTo("succeeded"));
    }

    @Test
    void cancelNeedsTheOperatorRoleAJobThatExistsAndAUuid() {
        String id = ledger.createQueued(JobKind.ART_BUILD, JobTrigger.MANUAL, "api").id().toString();
        asViewer().contentType("application/json").post("/api/jobs/" + id + "/cancel").then().statusCode(403);
        asOperator().contentType("application/json").post("/api/jobs/" + UUID.randomUUID() + "/cancel").then().statusCode(404)
                .contentType("application/problem+json");
        asOperator().contentType("application/json").post("/api/jobs/not-a-job/cancel").then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("id"));
        assertThat(Jobs.get(id).getString("state")).isEqualTo("queued");

        // a queued art build, cancelled at once
        JsonPath cancelled = cancel(id, 200);
        assertThat(cancelled.getString("state")).isEqualTo("cancelled");
        assertThat(eventOf(id).getString("kind")).isEqualTo("art-build");
    }

    @Test
    void aWaitingRefreshIsCancelledAndItsDelayedRecordArrivingAfterwardsChangesNothing() {
        // only this test's delayed record is for a cancelled job the ledger knows (TestData.reset emptied it)
        double before = forCancelled();
        // 10 s: the cancel must reach the job while it waits, on a loaded machine too
        standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", "10"));
        String id = Jobs.postRefresh("manual");
        JsonPath waiting = Jobs.awaitState(id, Duration.ofSeconds(30), Set.of("waiting"));
        JsonPath cancelled = cancel(id, 200);
        assertThat(waiting.getInt("retry_count")).isEqualTo(1);
        assertThat(cancelled.getString("state")).isEqualTo("cancelled");
        assertThat(cancelled.getString("retry_at")).isNull();
        assertThat(eventOf(id).getString("from")).isEqualTo("waiting");
        // the place is free at once
        String next = Jobs.postRefresh("manual");

        // the delayed record comes back through the relay at its not-before: counted, and nothing runs
        await().atMost(Duration.ofSeconds(30)).until(() -> forCancelled() > before);
        JsonPath after = Jobs.get(id);
        assertThat(after.getString("state")).isEqualTo("cancelled");
        assertThat(after.getList("runs")).hasSize(1);
        assertThat(after.getString("runs[0].status")).isEqualTo("failed");
        assertThat(Jobs.awaitState(next, Duration.ofSeconds(60), ENDED).getString("state")).isEqualTo("succeeded");
    }

    @Test
    void aRunningRefreshStopsAtItsNextCheckpointAndEndsCancelled() {
        // the bulk file in three pieces, 4 s apart: the download is under way when the cancel comes
        standIn.enqueue("/file/default-cards/", Fault.slowBody(180 * 1024, Duration.ofSeconds(4)));
        String id = Jobs.postRefresh("manual");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            JsonPath job = Jobs.get(id);
            return "running".equals(job.getString("state")) && "download".equals(job.getString("runs[0].stage"))
                    && job.getLong("runs[0].done") > 0;
        });

        JsonPath asked = cancel(id, 202);
        assertThat(asked.getString("state")).isEqualTo("running");
        assertThat(asked.getString("cancel_requested_at")).isNotNull();
        assertThat(asked.getString("cancelled_by")).isEqualTo("operator");
        // asked twice: still running, still one request
        assertThat(cancel(id, 202).getString("cancel_requested_at")).isEqualTo(asked.getString("cancel_requested_at"));

        JsonPath cancelled = Jobs.awaitState(id, Duration.ofSeconds(30), ENDED);
        assertThat(cancelled.getString("state")).isEqualTo("cancelled");
        assertThat(cancelled.getString("runs[0].status")).isEqualTo("cancelled");
        assertThat(cancelled.getString("runs[0].stage")).isEqualTo("download");
        assertThat(cancelled.getString("runs[0].message")).startsWith("cancelled by operator");
        assertThat(cancelled.getString("message")).isEqualTo("cancelled by operator while running (stage download)");
        assertThat(eventOf(id).getString("from")).isEqualTo("running");
        // nothing applied: no card, no catalog version
        assertThat(TestDatabase.count("SELECT count(*) FROM card")).isZero();

        // the next refresh completes the work
        String next = Jobs.postRefresh("manual");
        JsonPath done = Jobs.awaitState(next, Duration.ofSeconds(60), ENDED);
        assertThat(done.getString("state")).isEqualTo("succeeded");
        assertThat(done.getLong("runs[0].counts.seen")).isEqualTo(ScryfallStandIn.SAMPLE_ENGLISH_PAPER_CARDS);
    }

    @Test
    void aWaitingArtBuildIsCancelledAndItsDelayedRecordChangesNothing() {
        refresh();
        Fault[] faults = new Fault[6];
        Arrays.fill(faults, Fault.pass());
        // 10 s: the cancel must reach the job while it waits, on a loaded machine too
        faults[5] = Fault.status(429).header("Retry-After", "10");
        standIn.enqueue("/", faults);
        // only this test's delayed record is for a cancelled job the ledger knows (TestData.reset emptied it)
        double before = forCancelled();
        String id = postArtBuild("{}");
        Jobs.awaitState(id, Duration.ofSeconds(30), Set.of("waiting"));

        assertThat(cancel(id, 200).getString("state")).isEqualTo("cancelled");
        assertThat(eventOf(id).getString("from")).isEqualTo("waiting");

        await().atMost(Duration.ofSeconds(30)).until(() -> forCancelled() > before);
        JsonPath after = Jobs.get(id);
        assertThat(after.getString("state")).isEqualTo("cancelled");
        assertThat(after.getList("runs")).hasSize(1);
        assertThat(TestDatabase.count("SELECT count(*) FROM art_index")).isZero();
    }

    @Test
    void aRunningArtBuildStopsAtItsNextArtworkKeepsItsFingerprintsAndPublishesNothing() {
        refresh();
        // eighty images, then one served slowly (about 10 s, 1 KiB a second): the build is running when the cancel
        // comes
        Fault[] faults = new Fault[81];
        Arrays.fill(faults, Fault.pass());
        faults[80] = Fault.slowBody(1024, Duration.ofSeconds(1));
        standIn.enqueue("/", faults);
        String id = postArtBuild("{}");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            JsonPath job = Jobs.get(id);
            return "running".equals(job.getString("state")) && "fingerprint".equals(job.getString("runs[0].stage"))
                    && job.getLong("runs[0].done") >= 60;
        });

        assertThat(cancel(id, 202).getString("state")).isEqualTo("running");
        JsonPath cancelled = Jobs.awaitState(id, Duration.ofSeconds(20), ENDED);

        assertThat(cancelled.getString("state")).isEqualTo("cancelled");
        assertThat(cancelled.getString("runs[0].status")).isEqualTo("cancelled");
        assertThat(cancelled.getString("runs[0].stage")).isEqualTo("fingerprint");
        long fingerprinted = cancelled.getLong("runs[0].counts.fingerprinted");
        assertThat(fingerprinted).isGreaterThanOrEqualTo(50).isLessThan(cancelled.getLong("runs[0].counts.artworks"));
        // what it wrote stays (every whole batch, and the batch it stopped in), and nothing was published
        assertThat(TestDatabase.count("SELECT count(*) FROM art_fingerprint")).isEqualTo(fingerprinted);
        assertThat(TestDatabase.count("SELECT count(*) FROM art_index")).isZero();
        assertThat(eventOf(id).getString("from")).isEqualTo("running");

        // the next build carries on from it
        String next = postArtBuild("{}");
        JsonPath done = Jobs.awaitState(next, Duration.ofSeconds(90), ENDED);
        assertThat(done.getString("state")).isEqualTo("succeeded");
        assertThat(done.getLong("runs[0].counts.already")).isEqualTo(fingerprinted);
    }

    private void refresh() {
        String id = Jobs.postRefresh("manual");
        assertThat(Jobs.awaitState(id, Duration.ofSeconds(60), ENDED).getString("state")).isEqualTo("succeeded");
    }

    private static String postArtBuild(String body) {
        return asOperator().contentType("application/json").body(body).post("/api/art-builds").then()
                .statusCode(202).extract().jsonPath().getString("id");
    }

    private static JsonPath cancel(String id, int status) {
        return asOperator().contentType("application/json").post("/api/jobs/" + id + "/cancel").then().statusCode(status)
                .header("Location", notNullValue()).extract().jsonPath();
    }

    private double forCancelled() {
        var counter = metrics.find("jobs.commands.for.cancelled").counter();
        return counter == null ? 0 : counter.count();
    }

    private static JsonPath eventOf(String jobId) {
        List<JsonPath> events = TestKafka.readAll("card-catalog.events", Duration.ofSeconds(5)).stream()
                .filter(record -> "job-cancelled".equals(record.key()))
                .map(record -> new JsonPath(new String(record.value(), StandardCharsets.UTF_8)))
                .filter(event -> jobId.equals(event.getString("jobId")))
                .toList();
        assertThat(events).hasSize(1);
        assertThat(events.get(0).getString("type")).isEqualTo("job-cancelled");
        return events.get(0);
    }
}
