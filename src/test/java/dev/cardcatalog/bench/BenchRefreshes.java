package dev.cardcatalog.bench;

import dev.cardcatalog.testing.EmbeddedPostgresServer;
import dev.cardcatalog.testing.ServiceProcess;
import dev.cardcatalog.testing.TestUsers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Starting a refresh through the API as the operator, and waiting for it, for the benchmarks. */
final class BenchRefreshes {

    static final Pattern STATE = Pattern.compile("\"state\":\"([a-z]+)\"");

    private BenchRefreshes() {
    }

    /**
     * The service's JVM options in the benchmarks, as deploy/deployment.yaml runs it: the heap cap, e.g.
     * {@code 256m}, and the serial collector, which the JVM picks on its own in that container (2 CPUs, 768 MiB:
     * not a "server-class machine") and the deployment names so that it does not depend on the limits.
     */
    static List<String> serviceJvm(String heap) {
        return List.of("-Xmx" + heap, "-XX:+UseSerialGC");
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

    /**
     * Waits until the service's name index was read at the table's current {@code card_change} count (the gauge
     * {@code catalog.name.index.changes}), so that its reading, once the table is quiet after a refresh, does not
     * fall inside the next measurement; fails after 2 minutes.
     *
     * @return how long it waited, in seconds
     */
    static double awaitNameIndex(HttpClient http, ServiceProcess service, EmbeddedPostgresServer postgres)
            throws Exception {
        long start = System.nanoTime();
        String gauge = "catalog_name_index_changes ";
        while (true) {
            long changes;
            try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(), EmbeddedPostgresServer.USER,
                    EmbeddedPostgresServer.PASSWORD); Statement statement = connection.createStatement();
                    ResultSet row = statement.executeQuery("SELECT changes FROM card_change")) {
                row.next();
                changes = row.getLong(1);
            }
            String metrics = http.send(HttpRequest.newBuilder(URI.create(service.managementUrl() + "/metrics"))
                    .build(), HttpResponse.BodyHandlers.ofString()).body();
            if (metrics.lines().anyMatch(line -> line.startsWith(gauge)
                    && (long) Double.parseDouble(line.substring(gauge.length()).trim()) == changes)) {
                return (System.nanoTime() - start) / 1e9;
            }
            if (System.nanoTime() - start > Duration.ofMinutes(2).toNanos()) {
                throw new IllegalStateException("the name index did not catch up with the catalog in 2 minutes");
            }
            Thread.sleep(200);
        }
    }
}
