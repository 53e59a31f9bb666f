package dev.cardcatalog.bench;

import dev.cardcatalog.testing.TestUsers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Starting a refresh through the API as the operator, and waiting for it, for the benchmarks. */
final class BenchRefreshes {

    static final Pattern STATE = Pattern.compile("\"state\":\"([a-z]+)\"");

    private BenchRefreshes() {
    }

    /** {@code POST /api/refreshes} (manual); the new job's path, {@code /api/jobs/<id>}; fails unless 202. */
    static String start(HttpClient http, String baseUrl) throws Exception {
        HttpResponse<String> posted = http.send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/refreshes"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"trigger\":\"manual\"}"))
                .header("Content-Type", "application/json").header("Authorization", TestUsers.OPERATOR_AUTHORIZATION)
                .build(), HttpResponse.BodyHandlers.ofString());
        if (posted.statusCode() != 202) {
            throw new IllegalStateException("POST /api/refreshes answered " + posted.statusCode() + ": "
                    + posted.body());
        }
        return URI.create(posted.headers().firstValue("Location").orElseThrow()).getPath();
    }

    /**
     * Polls the job every {@code poll} until it is finished; its last JSON.
     *
     * @throws IllegalStateException when it finished other than {@code succeeded}
     */
    static String awaitSucceeded(HttpClient http, String baseUrl, String jobPath, Duration poll) throws Exception {
        while (true) {
            String body = http.send(HttpRequest.newBuilder(URI.create(baseUrl + jobPath))
                    .header("Authorization", TestUsers.OPERATOR_AUTHORIZATION).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            Matcher state = STATE.matcher(body);
            if (state.find() && List.of("succeeded", "skipped", "failed").contains(state.group(1))) {
                if (!state.group(1).equals("succeeded")) {
                    throw new IllegalStateException("the refresh did not apply: " + body);
                }
                return body;
            }
            Thread.sleep(poll.toMillis());
        }
    }
}
