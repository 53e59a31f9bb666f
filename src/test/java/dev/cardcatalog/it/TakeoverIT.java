package dev.cardcatalog.it;

import static dev.cardcatalog.testing.TestUsers.asOperator;
import static dev.cardcatalog.testing.TestUsers.asViewer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cardcatalog.testing.Jobs;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ScryfallStandIn.Fault;
import dev.cardcatalog.testing.ServiceProcess;
import dev.cardcatalog.testing.TestDatabase;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A process killed in the middle of a refresh, with a second instance running: the second instance sees the run's
 * heartbeat go stale, takes the job over and applies it; nothing is lost and the two runs never overlap.
 */
class TakeoverIT {

    private static final Map<String, String> FAST_TAKEOVER = Map.of(
            "card-catalog.jobs.refresh-stale-after", "5s",
            "card-catalog.jobs.sweep-interval", "1s",
            "card-catalog.jobs.progress-interval", "500ms");

    @Test
    void aRefreshWhoseProcessIsKilledIsTakenOverAndApplies() {
        try (Instances instances = new Instances()) {
            MidRefresh refresh = midRefresh(instances, FAST_TAKEOVER);
            String jobId = refresh.jobId();
            ServiceProcess victim = refresh.owner();
            ServiceProcess survivor = refresh.other();
            Instant killedAt = Instant.now();
            victim.kill();

            JsonPath done = awaitFinished(survivor, jobId, Duration.ofSeconds(90));

            assertThat(done.getString("state")).isEqualTo("succeeded");
            assertThat(done.getList("runs")).hasSize(2);
            assertThat(done.getString("runs[1].status")).isEqualTo("interrupted");
            assertThat(done.getString("runs[1].message")).contains("taken over by " + survivor.pid() + "@");
            assertThat(done.getString("runs[0].status")).isEqualTo("applied");
            assertThat(done.getString("runs[0].owner")).startsWith(survivor.pid() + "@");
            assertThat(done.getLong("runs[0].counts.seen")).isEqualTo(ScryfallStandIn.SAMPLE_ENGLISH_PAPER_CARDS);
            // taken over only once the heartbeat was stale, and never two runs at once
            Instant takenOver = Instant.parse(done.getString("runs[0].started_at"));
            assertThat(takenOver).isAfter(killedAt.plusSeconds(4));
            assertThat(takenOver).isAfterOrEqualTo(Instant.parse(done.getString("runs[1].finished_at")));
            assertThat(TestDatabase.count("SELECT count(*) FROM card WHERE retired_at IS NULL"))
                    .isEqualTo(ScryfallStandIn.SAMPLE_ENGLISH_PAPER_CARDS);
        }
    }

    @Test
    void aRefreshWhoseInstanceStopsIsHandedBackNotChargedAndAppliesOnTheOther() {
        try (Instances instances = new Instances()) {
            Map<String, String> config = new java.util.HashMap<>(FAST_TAKEOVER);
            // should the stopping instance's command not reach Kafka, the sweep sends it after 3 s
            config.put("card-catalog.retry.overdue-grace", "3s");
            MidRefresh refresh = midRefresh(instances, config);
            String jobId = refresh.jobId();
            ServiceProcess stopped = refresh.owner();
            ServiceProcess other = refresh.other();
            stopped.close(); // SIGTERM, as Kubernetes stops a pod

            JsonPath done = awaitFinished(other, jobId, Duration.ofSeconds(90));

            assertThat(done.getString("state")).isEqualTo("succeeded");
            assertThat(done.getInt("retry_count")).isZero();
            assertThat(done.getList("runs")).hasSize(2);
            assertThat(done.getString("runs[1].status")).isEqualTo("interrupted");
            assertThat(done.getString("runs[1].message")).contains("stopped; the job is queued again");
            assertThat(done.getString("runs[0].status")).isEqualTo("applied");
            assertThat(done.getString("runs[0].owner")).startsWith(other.pid() + "@");
            assertThat(TestDatabase.count("SELECT transient_retries + rate_limit_streak FROM job WHERE id = ?::uuid",
                    jobId)).isZero();
            assertThat(TestDatabase.count("SELECT count(*) FROM card WHERE retired_at IS NULL"))
                    .isEqualTo(ScryfallStandIn.SAMPLE_ENGLISH_PAPER_CARDS);
        }
    }

    /** A refresh in the middle of its download, on {@code owner}; {@code other} is the second instance. */
    private record MidRefresh(String jobId, ServiceProcess owner, ServiceProcess other) {
    }

    /**
     * Starts two instances with {@code config}, makes the next bulk download crawl (8 KB every 250 ms) and posts a
     * refresh; returns once the refresh has downloaded its first bytes.
     */
    private static MidRefresh midRefresh(Instances instances, Map<String, String> config) {
        ServiceProcess a = instances.start("a", config);
        ServiceProcess b = instances.start("b", config);
        ScryfallStandIn.shared().enqueue("/file/", Fault.slowBody(8 * 1024, Duration.ofMillis(250)));
        String jobId = asOperator().baseUri(a.baseUrl()).contentType("application/json").body("{}")
                .post("/api/refreshes").then().statusCode(202).extract().jsonPath().getString("id");
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            JsonPath job = job(a, jobId);
            Object done = job.get("runs[0].done");
            return "download".equals(job.getString("runs[0].stage")) && done != null
                    && ((Number) done).longValue() > 0;
        });
        String owner = job(a, jobId).getString("runs[0].owner");
        ServiceProcess running = owner.startsWith(a.pid() + "@") ? a : b;
        return new MidRefresh(jobId, running, running == a ? b : a);
    }

    /**
     * The job as {@code service} shows it. Any other answer than 200 fails saying what it was and how many rows of
     * the job PostgreSQL holds, which tells a job that is gone from one asked of the wrong process.
     */
    static JsonPath job(ServiceProcess service, String jobId) {
        io.restassured.response.Response answer = asViewer().baseUri(service.baseUrl()).get("/api/jobs/" + jobId);
        if (answer.statusCode() != 200) {
            throw new AssertionError("GET /api/jobs/" + jobId + " on " + service.baseUrl() + " (pid " + service.pid()
                    + ") answered " + answer.statusCode() + ": " + answer.asString() + "; rows of the job in"
                    + " PostgreSQL: " + TestDatabase.count("SELECT count(*) FROM job WHERE id = ?::uuid", jobId)
                    + " of " + TestDatabase.count("SELECT count(*) FROM job"));
        }
        return answer.jsonPath();
    }

    static JsonPath awaitFinished(ServiceProcess service, String jobId, Duration within) {
        return awaitFinished(service, jobId, within, List.of(service));
    }

    /**
     * The job once it has finished. {@code within} bounds how long it may stand still (its state, runs, stages,
     * counts and progress times unchanged: {@link Jobs#progress}), not how long it may take, so that a loaded machine
     * is not taken for a stuck job; a wait lasts {@link Jobs#CEILING} at most. Else an AssertionError whose one-line
     * message holds the job as last read and the last lines of each of {@code witnesses}' output, so a failure in CI
     * explains itself.
     */
    static JsonPath awaitFinished(ServiceProcess service, String jobId, Duration within,
            List<ServiceProcess> witnesses) {
        JsonPath[] last = new JsonPath[1];
        String[] seen = new String[1];
        long[] movedAt = {System.nanoTime()};
        try {
            await().atMost(Jobs.CEILING).pollInterval(Duration.ofMillis(250)).until(() -> {
                last[0] = job(service, jobId);
                if (java.util.Set.of("succeeded", "skipped", "failed").contains(last[0].getString("state"))) {
                    return true;
                }
                String now = Jobs.progress(last[0]);
                if (!now.equals(seen[0])) {
                    seen[0] = now;
                    movedAt[0] = System.nanoTime();
                } else if (System.nanoTime() - movedAt[0] > within.toNanos()) {
                    throw new org.awaitility.core.ConditionTimeoutException("it stood still for " + within);
                }
                return false;
            });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            StringBuilder message = new StringBuilder("job " + jobId + " not finished, standing still for " + within
                    + " at most: " + (last[0] == null ? "never read" : last[0].prettify().replaceAll("\\s+", " ")));
            for (ServiceProcess witness : witnesses) {
                message.append(" || pid ").append(witness.pid()).append(witness.process().isAlive() ? "" : " (dead)")
                        .append(": ").append(witness.logDigest(10));
            }
            throw new AssertionError(message.toString(), e);
        }
        return last[0];
    }
}
