package dev.cardcatalog.bench;

import dev.cardcatalog.testing.EmbeddedKafkaBroker;
import dev.cardcatalog.testing.EmbeddedPostgresServer;
import dev.cardcatalog.testing.ServiceProcess;
import dev.cardcatalog.testing.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * The admin page's render benchmark (docs/benchmarks.md, SERVICE.md §8): starts the packaged service, fills its
 * ledger with 1,000 finished jobs (succeeded and skipped), 100 failed and 100 waiting, each with its runs, and
 * times sequential {@code GET /admin} requests as an operator, as the page is asked for (the default view, and the
 * Failed and Waiting filters). Prints p50, p95, p99 and the largest, in milliseconds, over the measured requests.
 *
 * <p>The live ledger allows one job of a kind in flight (a unique index); 100 waiting jobs cannot happen in service.
 * The benchmark drops that index in its own throwaway database so the Waiting filter has 100 rows to show: a
 * harsher load than production can make.
 *
 * <p>Arguments: {@code <warm-up requests> <measured requests>} per view.
 */
public final class AdminPageBench {

    private static final List<String> VIEWS = List.of("/admin", "/admin?state=failed", "/admin?state=waiting");

    private AdminPageBench() {
    }

    public static void main(String[] args) throws Exception {
        int warmUp = Integer.parseInt(args[0]);
        int measured = Integer.parseInt(args[1]);
        EmbeddedPostgresServer postgres = EmbeddedPostgresServer.shared();
        EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.shared();
        Map<String, String> config = ServiceProcess.infrastructure(postgres, kafka, null);
        config.put("card-catalog.data-dir", Path.of("target/bench/admin-data").toAbsolutePath().toString());
        config.put("card-catalog.art.enabled", "false");
        config.put("quarkus.security.users.embedded.enabled", "true");
        config.put("quarkus.security.users.embedded.plain-text", "true");
        config.put("quarkus.security.users.embedded.users.operator", "bench-password");
        config.put("quarkus.security.users.embedded.roles.operator", "operator");
        Path log = Path.of("target/bench/admin-service.log").toAbsolutePath();
        Files.createDirectories(log.getParent());
        Files.deleteIfExists(log);
        try (ServiceProcess service = ServiceProcess.start(0, List.of("-Xmx256m"), config, log,
                Duration.ofMinutes(3))) {
            seed();
            System.out.printf(Locale.ROOT, "ledger: %d jobs, %d runs%n", TestDatabase.count("SELECT count(*) FROM job"),
                    TestDatabase.count("SELECT count(*) FROM job_run"));
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            String authorization = "Basic " + Base64.getEncoder().encodeToString(
                    "operator:bench-password".getBytes(StandardCharsets.UTF_8));
            for (String view : VIEWS) {
                HttpRequest request = HttpRequest.newBuilder(URI.create(service.baseUrl() + view))
                        .header("Authorization", authorization).header("Accept", "text/html").GET().build();
                for (int i = 0; i < warmUp; i++) {
                    get(client, request);
                }
                List<Long> nanos = new ArrayList<>(measured);
                long bytes = 0;
                for (int i = 0; i < measured; i++) {
                    long start = System.nanoTime();
                    bytes = get(client, request);
                    nanos.add(System.nanoTime() - start);
                }
                Collections.sort(nanos);
                System.out.printf(Locale.ROOT, "%-22s %d requests, %d bytes: p50 %.1f ms, p95 %.1f ms, p99 %.1f ms,"
                        + " max %.1f ms%n", view, measured, bytes, ms(nanos, 0.50), ms(nanos, 0.95), ms(nanos, 0.99),
                        nanos.get(nanos.size() - 1) / 1e6);
            }
        }
    }

    private static long get(HttpClient client, HttpRequest request) throws Exception {
        HttpResponse<byte[]> answer = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        if (answer.statusCode() != 200) {
            throw new IllegalStateException(request.uri() + " answered " + answer.statusCode());
        }
        return answer.body().length;
    }

    private static double ms(List<Long> sorted, double quantile) {
        int index = (int) Math.ceil(quantile * sorted.size()) - 1;
        return sorted.get(Math.max(0, index)) / 1e6;
    }

    /** 1,000 finished jobs, 100 failed, 100 waiting, over the last 30 days, both kinds, each with its runs. */
    private static void seed() throws Exception {
        TestDatabase.execute("DROP INDEX IF EXISTS job_one_in_flight_idx");
        Random random = new Random(20261130);
        Instant now = Instant.now();
        try (Connection connection = TestDatabase.connect()) {
            connection.setAutoCommit(false);
            try (PreparedStatement job = connection.prepareStatement("""
                    INSERT INTO job (id, kind, trigger, state, retry_count, retry_at, last_error, message, source,
                                     command, created_at, updated_at, finished_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'api', ?::jsonb, ?, ?, ?)""");
                    PreparedStatement run = connection.prepareStatement("""
                    INSERT INTO job_run (id, job_id, attempt, status, stage, done, total, counts, message, version,
                                         languages, owner, started_at, heartbeat_at, progressed_at, finished_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, 'en', '4242@bench', ?, ?, ?, ?)""")) {
                for (int i = 0; i < 1200; i++) {
                    String state = i < 1000 ? (i % 10 == 0 ? "skipped" : "succeeded") : i < 1100 ? "failed" : "waiting";
                    String kind = i % 3 == 0 ? "art-build" : "refresh";
                    UUID id = UUID.randomUUID();
                    Instant created = now.minusSeconds(60 + random.nextInt(30 * 24 * 3600));
                    int attempts = state.equals("failed") ? 1 + random.nextInt(3) : state.equals("waiting") ? 1
                            : random.nextInt(10) == 0 ? 2 : 1;
                    String rateLimited = "Scryfall answered 429 to GET /bulk-data, asking for 40 s";
                    String message = switch (state) {
                        case "succeeded" -> kind.equals("refresh") ? "applied default-cards-20261008210545"
                                : "ready art-index-default-cards-20261008210545-aa574ad30218cd69-808.bin.gz: 808 artworks";
                        case "skipped" -> "default-cards-20261008210545 already applied";
                        case "failed" -> "Scryfall answered 404 to GET /bulk-data: not_found";
                        default -> null;
                    };
                    Instant finished = state.equals("waiting") ? null : created.plusSeconds(30 * attempts);
                    job.setObject(1, id);
                    job.setString(2, kind);
                    job.setString(3, "manual");
                    job.setString(4, state);
                    job.setInt(5, attempts - 1 + (state.equals("waiting") ? 1 : 0));
                    job.setTimestamp(6, state.equals("waiting") ? Timestamp.from(now.plusSeconds(3000)) : null);
                    job.setString(7, state.equals("waiting") ? rateLimited : state.equals("failed") ? message : null);
                    job.setString(8, message);
                    job.setString(9, "{\"type\":\"" + kind + "\",\"jobId\":\"" + id + "\",\"trigger\":\"manual\"}");
                    job.setTimestamp(10, Timestamp.from(created));
                    job.setTimestamp(11, Timestamp.from(finished == null ? created.plusSeconds(30) : finished));
                    job.setTimestamp(12, finished == null ? null : Timestamp.from(finished));
                    job.addBatch();
                    for (int attempt = 1; attempt <= attempts; attempt++) {
                        boolean last = attempt == attempts;
                        String status = !last || state.equals("waiting") || state.equals("failed") ? "failed"
                                : state.equals("skipped") ? "skipped" : "applied";
                        Instant started = created.plusSeconds(30L * (attempt - 1));
                        run.setObject(1, UUID.randomUUID());
                        run.setObject(2, id);
                        run.setInt(3, attempt);
                        run.setString(4, status);
                        run.setString(5, kind.equals("refresh") ? "sync" : "fingerprint");
                        run.setLong(6, 515005);
                        run.setLong(7, 515005);
                        run.setString(8, "{\"seen\": 827, \"inserted\": 3, \"updated\": 12, \"retired\": 0}");
                        run.setString(9, last && message != null ? message : rateLimited);
                        run.setString(10, "default-cards-20261008210545");
                        run.setTimestamp(11, Timestamp.from(started));
                        run.setTimestamp(12, Timestamp.from(started.plusSeconds(20)));
                        run.setTimestamp(13, Timestamp.from(started.plusSeconds(20)));
                        run.setTimestamp(14, Timestamp.from(started.plusSeconds(25)));
                        run.addBatch();
                    }
                }
                job.executeBatch();
                run.executeBatch();
            }
            connection.commit();
        }
        TestDatabase.execute("ANALYZE");
    }
}
