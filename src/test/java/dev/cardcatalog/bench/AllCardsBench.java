package dev.cardcatalog.bench;

import dev.cardcatalog.testing.EmbeddedKafkaBroker;
import dev.cardcatalog.testing.EmbeddedPostgresServer;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ServiceProcess;
import dev.cardcatalog.testing.TestUsers;
import dev.cardcatalog.testing.TestData;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
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
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * The all_cards benchmark (docs/benchmarks.md, issue 11): the packaged service, heap capped, with ten languages
 * configured, refreshes a generated all_cards file (550,000 records in ten languages, about 2.4 GB decoded) into an
 * empty catalog. It prints the wall time (POST to finished), the service's peak RSS ({@code VmHWM}) and the run's
 * progress as polled every 200 ms (it fails when {@code done} ever leaves 0..{@code total}). Then the same file is
 * published again under a new version and its download is cut where the decoded stream passes 2.2 GB: the run must
 * fail and the catalog stay as it was (card count, retired count, latest {@code updated_at}).
 *
 * <p>Arguments: {@code <all_cards file> <heap, e.g. 256m> <languages, e.g. en,es,...>}.
 */
public final class AllCardsBench {

    private static final Pattern STATE = Pattern.compile("\"state\":\"([a-z]+)\"");
    private static final Pattern DONE = Pattern.compile(
            "\"stage\":\"([a-z]+)\",\"done\":(null|\\d+),\"total\":(null|\\d+)");
    private static final long CUT_AT_DECODED = 2_200_000_000L;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private AllCardsBench() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        String heap = args[1];
        String languages = args[2];
        byte[] bulk = Files.readAllBytes(file);

        EmbeddedPostgresServer postgres = EmbeddedPostgresServer.shared();
        EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.shared();
        kafka.createServiceTopics();
        ScryfallStandIn standIn = ScryfallStandIn.shared();
        standIn.serveAllCardsFile("all-cards-20261130000000", bulk);
        Path data = Path.of("target/bench/all-cards-data").toAbsolutePath();
        TestData.deleteTree(data);
        Map<String, String> config = ServiceProcess.infrastructure(postgres, kafka, standIn);
        config.put("card-catalog.data-dir", data.toString());
        config.put("card-catalog.art.enabled", "false");
        config.put("card-catalog.catalog.languages", languages);
        Path log = Path.of("target/bench/all-cards-service.log").toAbsolutePath();
        Files.deleteIfExists(log);
        boolean held = true;
        try (ServiceProcess service = ServiceProcess.start(0, BenchRefreshes.serviceJvm(heap), config,
                TestUsers.environment(), log, Duration.ofMinutes(3))) {
            System.out.printf("all_cards file %s: %d bytes; languages %s; service pid %d, -Xmx%s%n", file,
                    bulk.length, languages, service.pid(), heap);
            BenchRefreshes.settle(service, kafka);
            Files.writeString(Path.of("/proc/" + service.pid() + "/clear_refs"), "5");
            long postmaster = BenchRefreshes.postmasterPid(postgres);
            double serviceCpu = BenchRefreshes.cpuSeconds(service.pid());
            double postgresCpu = BenchRefreshes.treeCpuSeconds(postmaster);
            long start = System.nanoTime();
            String body = awaitEnd(service, post(service), Duration.ofMinutes(30));
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("CPU during the refresh: service %.1f s, PostgreSQL %.1f s%n",
                    BenchRefreshes.cpuSeconds(service.pid()) - serviceCpu,
                    BenchRefreshes.treeCpuSeconds(postmaster) - postgresCpu);
            if (!state(body).equals("succeeded")) {
                throw new IllegalStateException("the refresh did not apply: " + body);
            }
            Matcher counts = Pattern.compile("\"counts\":(\\{[^}]*})").matcher(body);
            System.out.printf("refresh into an empty catalog: %.1f s, peak RSS %d MB, %s%n", seconds,
                    peakRssKb(service.pid()) / 1024, counts.find() ? counts.group(1) : "");
            if (Files.readString(log).contains("OutOfMemoryError")) {
                throw new IllegalStateException("the service ran out of memory: see " + log);
            }

            String before = snapshot(postgres);
            long cut = compressedOffsetAt(bulk, CUT_AT_DECODED);
            standIn.serveAllCardsFile("all-cards-20261130120000", bulk);
            standIn.enqueue("/file/", ScryfallStandIn.Fault.cutBodyAfter(cut));
            String cutBody = awaitEnd(service, post(service), Duration.ofMinutes(10));
            String after = snapshot(postgres);
            Matcher message = Pattern.compile("\"message\":\"([^\"]*)\"").matcher(cutBody);
            System.out.printf("download cut after %d bytes (%.2f GB decoded): job %s, run message \"%s\"%n", cut,
                    CUT_AT_DECODED / 1e9, state(cutBody), message.find() ? message.group(1) : "");
            held = !state(cutBody).equals("succeeded") && before.equals(after);
            System.out.printf("catalog before the cut run: %s%ncatalog after the cut run:  %s%n%s%n", before,
                    after, held ? "the catalog is as it was" : "THE CUT CHECK FAILED");
        }
        standIn.close();
        kafka.close();
        postgres.close();
        System.exit(held ? 0 : 1);
    }

    private static String post(ServiceProcess service) throws Exception {
        return BenchRefreshes.start(HTTP, service.baseUrl());
    }

    /**
     * Polls the job until it is finished or waiting for a retry; checks the progress on the way and prints it every
     * 10 %.
     */
    private static String awaitEnd(ServiceProcess service, String jobPath, Duration atMost) throws Exception {
        long deadline = System.nanoTime() + atMost.toNanos();
        int printed = -1;
        while (System.nanoTime() < deadline) {
            String body = HTTP.send(HttpRequest.newBuilder(URI.create(service.baseUrl() + jobPath))
                    .header("Authorization", TestUsers.OPERATOR_AUTHORIZATION).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            String state = state(body);
            if (List.of("succeeded", "skipped", "failed", "waiting").contains(state)) {
                return body;
            }
            Matcher progress = DONE.matcher(body);
            if (progress.find() && !progress.group(2).equals("null") && !progress.group(3).equals("null")) {
                long done = Long.parseLong(progress.group(2));
                long total = Long.parseLong(progress.group(3));
                if (done < 0 || done > total) {
                    throw new IllegalStateException("progress out of range: " + progress.group());
                }
                int percent = (int) (100 * done / Math.max(1, total));
                if (percent / 10 != printed / 10) {
                    printed = percent;
                    System.out.printf("  %s %d %% (%d of %d bytes)%n", progress.group(1), percent, done, total);
                }
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the job did not end within " + atMost);
    }

    private static String state(String body) {
        Matcher state = STATE.matcher(body);
        return state.find() ? state.group(1) : "?";
    }

    /** Card count, retired count and the latest write: what a failed run must leave unchanged. */
    private static String snapshot(EmbeddedPostgresServer postgres) throws Exception {
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(), EmbeddedPostgresServer.USER,
                EmbeddedPostgresServer.PASSWORD); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT count(*), count(retired_at), max(updated_at), "
                        + "(SELECT count(*) FROM catalog_version) FROM card")) {
            row.next();
            return "cards " + row.getLong(1) + ", retired " + row.getLong(2) + ", latest update "
                    + row.getTimestamp(3) + ", versions applied " + row.getLong(4);
        }
    }

    /** The offset in the gzip file at which the decoded stream passes {@code decoded} bytes (near the end if never). */
    private static long compressedOffsetAt(byte[] gz, long decoded) throws IOException {
        long[] consumed = {0};
        InputStream counting = new FilterInputStream(new ByteArrayInputStream(gz)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n > 0) {
                    consumed[0] += n;
                }
                return n;
            }
        };
        long total = 0;
        try (InputStream in = new GZIPInputStream(new BufferedInputStream(counting, 1 << 12), 1 << 12)) {
            byte[] buffer = new byte[1 << 16];
            int n;
            while ((n = in.read(buffer)) > 0) {
                total += n;
                if (total >= decoded) {
                    return consumed[0];
                }
            }
        }
        System.out.printf("the file decodes to %d bytes, less than %d: cutting at 95 %% of it%n", total, decoded);
        return gz.length * 95L / 100;
    }

    private static long peakRssKb(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}
