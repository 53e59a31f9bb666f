package dev.cardcatalog.bench;

import dev.cardcatalog.testing.EmbeddedKafkaBroker;
import dev.cardcatalog.testing.EmbeddedPostgresServer;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ServiceProcess;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestUsers;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The refresh benchmark (docs/benchmarks.md): serves a generated bulk file of about 110,000 cards from the Scryfall
 * stand-in and measures the packaged service, heap capped, on
 * (a) a refresh into an empty database (download included), and (b) a no-op re-run of the same file:
 * wall time from the POST until the job is finished, and the service process's peak RSS during that refresh
 * ({@code VmHWM}, reset through {@code /proc/<pid>/clear_refs} before each). Per refresh it also prints the
 * sequential and index scans of {@code card} that refresh caused ({@code pg_stat_user_tables}, before and after) and
 * the time the refresh spent reading stored digests (the service logs it), and the CPU time the service process and
 * the PostgreSQL server's processes used during it (from {@code /proc}; less disturbed than wall time by other work
 * on a shared machine). (c), reading the file alone, is
 * {@link ReadFloor}, run by the script under {@code /usr/bin/time -v}.
 *
 * <p>Arguments: {@code <bulk file> <rounds> <heap, e.g. 256m>}.
 */
public final class RefreshBench {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private RefreshBench() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        String heap = args[2];
        byte[] bulk = Files.readAllBytes(file);
        String version = "default-cards-20261129000000";

        EmbeddedPostgresServer postgres = EmbeddedPostgresServer.shared();
        EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.shared();
        kafka.createServiceTopics();
        ScryfallStandIn standIn = ScryfallStandIn.shared();
        standIn.serveDefaultCardsFile(version, bulk);
        Path data = Path.of("target/bench/data").toAbsolutePath();
        TestData.deleteTree(data);
        Map<String, String> config = ServiceProcess.infrastructure(postgres, kafka, standIn);
        config.put("card-catalog.data-dir", data.toString());
        config.put("card-catalog.art.enabled", "false");
        Path log = Path.of("target/bench/service.log").toAbsolutePath();
        Files.deleteIfExists(log);
        List<Double> fullTimes = new ArrayList<>();
        List<Double> noopTimes = new ArrayList<>();
        List<Long> fullRss = new ArrayList<>();
        List<Long> noopRss = new ArrayList<>();
        try (ServiceProcess service = ServiceProcess.start(0, BenchRefreshes.serviceJvm(heap), config,
                TestUsers.environment(), log, Duration.ofMinutes(3))) {
            System.out.printf("bulk file %s: %d bytes; service pid %d, -Xmx%s%n", file, bulk.length, service.pid(),
                    heap);
            BenchRefreshes.settle(service, kafka);
            for (int round = 1; round <= rounds; round++) {
                emptyCatalog(postgres);
                TestData.deleteTree(data.resolve("bulk"));
                Measure full = refresh(service, postgres, log);
                Measure noop = refresh(service, postgres, log);
                fullTimes.add(full.seconds);
                noopTimes.add(noop.seconds);
                fullRss.add(full.peakRssKb);
                noopRss.add(noop.peakRssKb);
                System.out.printf("round %d: (a) empty database %.1f s, peak RSS %d MB, %s%n", round, full.seconds,
                        full.peakRssKb / 1024, full.counts);
                System.out.printf("round %d: (b) no-op re-run   %.1f s, peak RSS %d MB, %s%n", round, noop.seconds,
                        noop.peakRssKb / 1024, noop.counts);
            }
        }
        System.out.printf("%n(a) refresh into an empty database: median %.1f s (min %.1f, max %.1f), "
                + "peak RSS median %d MB (max %d MB)%n", median(fullTimes), Collections.min(fullTimes),
                Collections.max(fullTimes), medianLong(fullRss) / 1024, Collections.max(fullRss) / 1024);
        System.out.printf("(b) no-op re-run of the same file: median %.1f s (min %.1f, max %.1f), "
                + "peak RSS median %d MB (max %d MB)%n", median(noopTimes), Collections.min(noopTimes),
                Collections.max(noopTimes), medianLong(noopRss) / 1024, Collections.max(noopRss) / 1024);
        standIn.close();
        kafka.close();
        postgres.close();
        System.exit(0);
    }

    private record Measure(double seconds, long peakRssKb, String counts) {
    }

    private static final Pattern LOOKUPS = Pattern.compile("digest lookups: .*");
    private static final Pattern NAME_INDEX = Pattern.compile("name index: .*");

    private static Measure refresh(ServiceProcess service, EmbeddedPostgresServer postgres, Path log)
            throws Exception {
        long[] scansBefore = scans(postgres);
        long postmaster = BenchRefreshes.postmasterPid(postgres);
        double serviceCpuBefore = BenchRefreshes.cpuSeconds(service.pid());
        double postgresCpuBefore = BenchRefreshes.treeCpuSeconds(postmaster);
        resetPeakRss(service.pid());
        long start = System.nanoTime();
        String body = BenchRefreshes.awaitSucceeded(HTTP, service.baseUrl(),
                BenchRefreshes.start(HTTP, service.baseUrl()), Duration.ofMillis(50));
        double seconds = (System.nanoTime() - start) / 1e9;
        Matcher counts = Pattern.compile("\"counts\":(\\{[^}]*})").matcher(body);
        Measure measure = new Measure(seconds, peakRssKb(service.pid()), counts.find() ? counts.group(1) : "");
        double serviceCpu = BenchRefreshes.cpuSeconds(service.pid()) - serviceCpuBefore;
        double postgresCpu = BenchRefreshes.treeCpuSeconds(postmaster) - postgresCpuBefore;
        Thread.sleep(1_500); // PostgreSQL publishes a backend's table statistics at most once a second
        long[] scansAfter = scans(postgres);
        String lookups = "";
        Matcher matcher = LOOKUPS.matcher(Files.readString(log));
        while (matcher.find()) {
            lookups = matcher.group();
        }
        System.out.printf("    card scans during this refresh: %d sequential, %d index; %s; CPU: service %.1f s, "
                + "PostgreSQL %.1f s%n", scansAfter[0] - scansBefore[0], scansAfter[1] - scansBefore[1], lookups,
                serviceCpu, postgresCpu);
        // the name index is read once the table has been quiet for a poll interval: not inside the next round
        double waited = BenchRefreshes.awaitNameIndex(HTTP, service, postgres);
        String nameIndex = "";
        Matcher read = NAME_INDEX.matcher(Files.readString(log));
        while (read.find()) {
            nameIndex = read.group();
        }
        System.out.printf("    then waited %.1f s for the %s%n", waited, nameIndex);
        return measure;
    }

    /** The card table's sequential and index scans so far. */
    private static long[] scans(EmbeddedPostgresServer postgres) throws Exception {
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(), EmbeddedPostgresServer.USER,
                EmbeddedPostgresServer.PASSWORD); Statement statement = connection.createStatement();
                java.sql.ResultSet row = statement.executeQuery("SELECT seq_scan, coalesce(idx_scan, 0) "
                        + "FROM pg_stat_user_tables WHERE relname = 'card'")) {
            row.next();
            return new long[] {row.getLong(1), row.getLong(2)};
        }
    }

    private static void emptyCatalog(EmbeddedPostgresServer postgres) throws Exception {
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(), EmbeddedPostgresServer.USER,
                EmbeddedPostgresServer.PASSWORD); Statement statement = connection.createStatement()) {
            statement.execute("TRUNCATE card, card_face_image, card_set, catalog_version, job_run, job, quiet_window");
            statement.execute("VACUUM FULL card");
        }
    }

    private static void resetPeakRss(long pid) throws IOException {
        Files.writeString(Path.of("/proc/" + pid + "/clear_refs"), "5");
    }

    private static long peakRssKb(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    private static long medianLong(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}
