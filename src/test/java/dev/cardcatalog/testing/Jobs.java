package dev.cardcatalog.testing;

import static org.awaitility.Awaitility.await;

import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/** Waiting for jobs through the service's own API. */
public final class Jobs {

    public static final Set<String> FINISHED = Set.of("succeeded", "skipped", "failed", "cancelled");

    private Jobs() {
    }

    /** GET /api/jobs/{id}, as the viewer. */
    public static JsonPath get(String jobId) {
        return TestUsers.asViewer().get("/api/jobs/" + jobId).then().statusCode(200).extract().jsonPath();
    }

    /** Waits (at most {@code atMost}) until the job is in one of {@code states}; returns it. */
    public static JsonPath awaitState(String jobId, Duration atMost, Set<String> states) {
        JsonPath[] last = new JsonPath[1];
        await().atMost(atMost).pollInterval(Duration.ofMillis(100)).until(() -> {
            last[0] = get(jobId);
            return states.contains(last[0].getString("state"));
        });
        return last[0];
    }

    /**
     * Waits (at most {@code atMost}) until a job that a Kafka command creates is known to the ledger, then until it
     * is in one of {@code states}: the job answers 404 until the command has been consumed.
     */
    public static JsonPath awaitCommandState(String jobId, Duration atMost, Set<String> states) {
        await().atMost(atMost).pollInterval(Duration.ofMillis(100))
                .until(() -> TestUsers.asViewer().get("/api/jobs/" + jobId).statusCode() == 200);
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
