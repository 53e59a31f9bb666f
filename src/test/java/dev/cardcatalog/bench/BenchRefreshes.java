package dev.cardcatalog.bench;

import dev.cardcatalog.testing.DeployedJvm;
import dev.cardcatalog.testing.EmbeddedKafkaBroker;
import dev.cardcatalog.testing.EmbeddedPostgresServer;
import dev.cardcatalog.testing.ServiceProcess;
import dev.cardcatalog.testing.TestKafka;
import dev.cardcatalog.testing.TestUsers;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
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

    /** The service's JVM options in the benchmarks: the Deployment's ({@link DeployedJvm}), the heap cap e.g. 256m. */
    static List<String> serviceJvm(String heap) {
        return DeployedJvm.options(heap);
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

    /**
     * Brings a freshly started service and broker to the state of ones that have run a while, before the first
     * measured refresh: waits until the service is idle (under 0.1 CPU-seconds in 2 s, at most a minute: right after
     * readiness the JIT is still compiling the start's code and the refresh warm-up runs) and its command consumer
     * group is stable, then sends one command the service rejects (to its dead-letter topic) on the partition a
     * refresh's command goes to, since a fresh broker delivered the first record of a partition about a second late.
     */
    static void settle(ServiceProcess service, EmbeddedKafkaBroker kafka) throws InterruptedException {
        long start = System.nanoTime();
        double before = cpuSeconds(service.pid());
        while (System.nanoTime() - start < Duration.ofMinutes(1).toNanos()) {
            Thread.sleep(2_000);
            double now = cpuSeconds(service.pid());
            if (now - before < 0.1) {
                break;
            }
            before = now;
        }
        System.out.printf("service idle %.1f s after it was ready (%.1f CPU-seconds used so far)%n",
                (System.nanoTime() - start) / 1e9, cpuSeconds(service.pid()));
        kafka.awaitStableGroup("card-catalog", Duration.ofMinutes(1));
        TestKafka.send("card-catalog.commands", "refresh", "not a command");
        Thread.sleep(3_000);
    }

    /** User + system CPU seconds of a process so far ({@code /proc/<pid>/stat}, clock ticks of 1/100 s). */
    static double cpuSeconds(long pid) {
        try {
            String[] fields = statFields(Path.of("/proc/" + pid));
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0;
        } catch (IOException | RuntimeException e) {
            return 0; // the process ended
        }
    }

    /**
     * The fields of {@code /proc/<pid>/stat} after the command's name: state (0), ppid (1), ... utime (11),
     * stime (12).
     */
    private static String[] statFields(Path process) throws IOException {
        String stat = Files.readString(process.resolve("stat"));
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    }

    /** The PostgreSQL server's process id (the first line of its data directory's postmaster.pid). */
    static long postmasterPid(EmbeddedPostgresServer postgres) throws Exception {
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(), EmbeddedPostgresServer.USER,
                EmbeddedPostgresServer.PASSWORD); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SHOW data_directory")) {
            row.next();
            return Long.parseLong(Files.readAllLines(Path.of(row.getString(1), "postmaster.pid")).get(0).trim());
        }
    }

    /** CPU seconds of a process and its living children (PostgreSQL's backends and workers). */
    static double treeCpuSeconds(long parent) throws IOException {
        double total = cpuSeconds(parent);
        try (var processes = Files.list(Path.of("/proc"))) {
            for (Path process : processes.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
                try {
                    if (Long.parseLong(statFields(process)[1]) == parent) {
                        total += cpuSeconds(Long.parseLong(process.getFileName().toString()));
                    }
                } catch (IOException | RuntimeException e) {
                    // the process ended
                }
            }
        }
        return total;
    }
}
