package dev.cardcatalog.testing;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * Waiting for jobs through the service's own API. The waits poll with the JDK's HTTP client and Jackson, not with
 * REST Assured: a REST Assured request and its Groovy path expressions cost milliseconds of CPU, ten times a second
 * for every wait, and the unit-test JVMs share two cores (docs/benchmarks.md, "Test suite").
 */
public final class Jobs {

    public static final Set<String> FINISHED = Set.of("succeeded", "skipped", "failed", "cancelled");

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private Jobs() {
    }

    /** GET /api/jobs/{id}, as the viewer. */
    public static JsonPath get(String jobId) {
        return TestUsers.asViewer().get("/api/jobs/" + jobId).then().statusCode(200).extract().jsonPath();
    }

    /**
     * GET /api/jobs/{id} as the viewer, where REST Assured sends its requests ({@link RestAssured#baseURI},
     * {@link RestAssured#port}, {@link RestAssured#basePath}).
     */
    static HttpResponse<String> answer(String jobId) throws IOException, InterruptedException {
        String base = RestAssured.baseURI + ":" + RestAssured.port
                + (RestAssured.basePath.equals("/") ? "" : RestAssured.basePath);
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + "/api/jobs/" + jobId))
                .header("Authorization", TestUsers.VIEWER_AUTHORIZATION).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /**
     * The body of {@link #answer(String)}, a JSON object.
     *
     * @throws AssertionError when the answer is not 200
     */
    static String body(String jobId) throws IOException, InterruptedException {
        HttpResponse<String> answer = answer(jobId);
        if (answer.statusCode() != 200) {
            throw new AssertionError("GET /api/jobs/" + jobId + " answered " + answer.statusCode() + ": "
                    + answer.body());
        }
        return answer.body();
    }

    /** The longest any wait for a job lasts, however steadily it moves. */
    public static final Duration CEILING = Duration.ofMinutes(15);

    /**
     * Waits until the job is in one of {@code states}; returns it. {@code atMost} bounds how long the job may stand
     * still, not how long it may take: every change of its state, its runs or a run's stage, count or progress time
     * starts the bound again, so that a slow machine (a loaded CI box, a JIT still cold) is not taken for a stuck
     * job, while a job that stops moving fails the wait after {@code atMost} as before. A wait never lasts longer
     * than {@link #CEILING}.
     *
     * @throws org.awaitility.core.ConditionTimeoutException naming the job's last state when it stood still for
     *     {@code atMost}
     */
    public static JsonPath awaitState(String jobId, Duration atMost, Set<String> states) {
        String[] last = new String[1];
        String[] seen = new String[1];
        long[] movedAt = {System.nanoTime()};
        await().atMost(CEILING).pollInterval(Duration.ofMillis(100)).until(() -> {
            last[0] = body(jobId);
            JsonNode job = JSON.readTree(last[0]);
            String state = job.path("state").asText(null);
            if (states.contains(state)) {
                return true;
            }
            if (FINISHED.contains(state)) {
                throw new AssertionError("job " + jobId + " ended " + state + ", not in " + states + ": "
                        + progress(job));
            }
            String now = progress(job);
            if (!now.equals(seen[0])) {
                seen[0] = now;
                movedAt[0] = System.nanoTime();
            } else if (System.nanoTime() - movedAt[0] > atMost.toNanos()) {
                throw new org.awaitility.core.ConditionTimeoutException("job " + jobId + " did not reach " + states
                        + ": it stood still for " + atMost.toSeconds() + " s at " + now);
            }
            return false;
        });
        return new JsonPath(last[0]);
    }

    /**
     * Waits until {@code condition} holds, as long as the ledger moves ({@link #ledgerProgress()}): {@code stillFor}
     * bounds how long nothing in it may change, as in {@link #awaitState}, so that a loaded machine's slow build is
     * not taken for a stuck one. A wait never lasts longer than {@link #CEILING}.
     *
     * @throws org.awaitility.core.ConditionTimeoutException naming {@code what} and the ledger's last state when
     *     nothing moved for {@code stillFor}
     */
    public static void awaitWhileMoving(Duration stillFor, String what, Callable<Boolean> condition) {
        awaitWhileMoving(stillFor, Jobs::ledgerProgress, what, condition);
    }

    /**
     * As {@link #awaitWhileMoving(Duration, String, Callable)}, with {@code progress} as what moves.
     *
     * @throws org.awaitility.core.ConditionTimeoutException naming {@code what} and the last progress when nothing
     *     moved for {@code stillFor}
     */
    public static void awaitWhileMoving(Duration stillFor, Supplier<String> progress, String what,
            Callable<Boolean> condition) {
        String[] seen = new String[1];
        long[] movedAt = {System.nanoTime()};
        await(what).atMost(CEILING).pollInterval(Duration.ofMillis(200)).until(() -> {
            if (Boolean.TRUE.equals(condition.call())) {
                return true;
            }
            String now = progress.get();
            if (!now.equals(seen[0])) {
                seen[0] = now;
                movedAt[0] = System.nanoTime();
            } else if (System.nanoTime() - movedAt[0] > stillFor.toNanos()) {
                throw new org.awaitility.core.ConditionTimeoutException(what + ": nothing moved for "
                        + stillFor.toSeconds() + " s; it stood at " + now);
            }
            return false;
        });
    }

    /**
     * What moves in the ledger while any job works: every job's state, and every run's status, stage, count and
     * progress time.
     */
    public static String ledgerProgress() {
        return String.valueOf(TestDatabase.value("SELECT coalesce(string_agg(j.id || ' ' || j.state || ' '"
                + " || coalesce(r.attempt::text, '-') || ' ' || coalesce(r.status, '-') || ' '"
                + " || coalesce(r.stage, '-')"
                + " || ' ' || coalesce(r.done::text, '-') || ' ' || coalesce(r.progressed_at::text, '-'), ' | '"
                + " ORDER BY j.id, r.attempt), '') FROM job j LEFT JOIN job_run r ON r.job_id = j.id"));
    }

    /** What moves while a job works: its state, and each run's status, stage, count and progress time. */
    public static String progress(JsonPath job) {
        try {
            return progress(JSON.readTree(job.prettify()));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** As {@link #progress(JsonPath)}, of a job read by Jackson. */
    static String progress(JsonNode job) {
        StringBuilder text = new StringBuilder(job.path("state").asText("null"));
        for (JsonNode run : job.path("runs")) {
            text.append(" | run ").append(run.path("attempt")).append(' ').append(run.path("status").asText("null"))
                    .append(' ').append(run.path("stage").asText("null")).append(' ').append(run.path("done"))
                    .append(' ').append(run.path("counts")).append(' ')
                    .append(run.path("progressed_at").asText("null"));
        }
        return text.toString();
    }

    /**
     * Waits (at most {@code atMost}) until a job that a Kafka command creates is known to the ledger, then until it
     * is in one of {@code states}: the job answers 404 until the command has been consumed.
     */
    public static JsonPath awaitCommandState(String jobId, Duration atMost, Set<String> states) {
        await().atMost(atMost).pollInterval(Duration.ofMillis(100)).until(() -> answer(jobId).statusCode() == 200);
        return awaitState(jobId, atMost, states);
    }

    public static JsonPath awaitFinished(String jobId) {
        return awaitState(jobId, Duration.ofSeconds(60), FINISHED);
    }

    /** POST /api/refreshes with {@code trigger}, as the operator; returns the new job's id (asserting 202). */
    public static String postRefresh(String trigger) {
        return TestUsers.asOperator().contentType("application/json").body("{\"trigger\":\"" + trigger + "\"}")
                .post("/api/refreshes").then().statusCode(202).extract().jsonPath().getString("id");
    }

    /** The ids of jobs whose source is a Kafka record (not the API), newest first. */
    public static List<String> kafkaJobIds() {
        return TestDatabase.rows("SELECT id::text AS id FROM job WHERE source <> 'api' ORDER BY created_at DESC")
                .stream().map(row -> (String) row.get("id")).toList();
    }
}
