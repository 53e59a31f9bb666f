package dev.cardcatalog.bench;

import dev.cardcatalog.scan.MatchResource;
import dev.cardcatalog.scan.UploadAdmission;
import dev.cardcatalog.scan.UploadCost;
import dev.cardcatalog.scan.UploadLimits;
import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.EmbeddedKafkaBroker;
import dev.cardcatalog.testing.EmbeddedPostgresServer;
import dev.cardcatalog.testing.HostileImages;
import dev.cardcatalog.testing.HostileLoad;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ServiceProcess;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestUsers;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 23's benchmark (docs/benchmarks.md, "Hostile uploads"), against the packaged service run as the Deployment
 * runs it ({@code -Xmx256m -XX:+UseSerialGC} and its survivor spaces: {@link BenchRefreshes#serviceJvm}), over
 * HTTP, with embedded PostgreSQL and Kafka and the Scryfall stand-in serving the bundled sample:
 * <ol>
 *   <li><b>the issue's scan flood alone</b>: the answer time of the 759 KB-class file (20,000 scans) on the idle
 *       service, 20 times;</li>
 *   <li><b>the mix</b>: {@code hostile} clients send the hostile corpus ({@link HostileImages#corpus()}) back to
 *       back while {@code normal} clients match guide crops back to back, for {@code seconds}, with the default
 *       configuration: the normal matches' p50/p99 and the hostile answers' times;</li>
 *   <li><b>memory</b>: a second service, with {@code expensive-match-concurrency=2} so that the uploads' memory
 *       budget ({@code upload-decode-memory}, 192 MiB), not the turns, is what bounds them: {@code hostile} clients
 *       send the heaviest upload the limits admit (a 6,000 × 6,000 progressive JPEG: a 72 MB native coefficient
 *       array each) and {@code normal} clients guide crops, while a refresh of {@code cards} generated cards runs and
 *       then the art build it starts, for {@code seconds} into that build: the service's peak RSS ({@code VmHWM},
 *       reset when the phase starts) against the Deployment's 768 MiB limit.</li>
 * </ol>
 * Phase 2b, after 2: issue 23's item 5 as a benchmark, {@code hostile} clients sending the corpus beside one normal
 * client that matches a guide crop once a second, for {@code seconds}.
 *
 * <p>Arguments: {@code <seconds> <hostile clients> <normal clients> <cards> [phases, default 1,2,2b,3]}.
 */
public final class HostileMixBench {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private HostileMixBench() {
    }

    public static void main(String[] args) throws Exception {
        Duration seconds = Duration.ofSeconds(Long.parseLong(args[0]));
        int hostileClients = Integer.parseInt(args[1]);
        int normalClients = Integer.parseInt(args[2]);
        int cards = Integer.parseInt(args[3]);
        List<String> phases = List.of((args.length > 4 ? args[4] : "1,2,2b,3").split(","));
        Path dir = Path.of("target/bench/hostile").toAbsolutePath();
        TestData.deleteTree(dir);
        Files.createDirectories(dir);

        System.out.println("making the hostile corpus ...");
        List<HostileImages.Sample> corpus = HostileImages.corpus();
        byte[] heaviest = HostileImages.greyProgressive(6000);
        UploadCost heaviestCost = new UploadAdmission(UploadLimits.DEFAULTS, 16_777_216L, 2L << 20,
                MatchResource.uploadDecoder(), new SimpleMeterRegistry()).admit(heaviest);
        System.out.printf("heaviest admitted upload: %d bytes, cost %s%n", heaviest.length, heaviestCost);
        Path bulk = dir.resolve("default-cards-" + cards + ".jsonl.gz");
        if (phases.contains("3")) {
            BulkFileGenerator.write(cards, bulk, 20261201L);
        }

        EmbeddedPostgresServer postgres = EmbeddedPostgresServer.shared();
        EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.shared();
        kafka.createServiceTopics();
        ScryfallStandIn standIn = ScryfallStandIn.shared();

        // 1 and 2: the default configuration
        try (ServiceProcess service = start(postgres, kafka, standIn, dir, "mix", Map.of())) {
            BenchRefreshes.settle(service, kafka);
            BenchRefreshes.awaitSucceeded(HTTP, service.baseUrl(), BenchRefreshes.start(HTTP, service.baseUrl()),
                    Duration.ofMillis(200));
            awaitIndex(service);
            List<byte[]> crops = crops(postgres, 8);
            for (byte[] crop : crops) {
                HostileLoad.send(HTTP, service.baseUrl(), "warm-up", "image/jpeg", crop);
            }

            if (phases.contains("1")) {
                floodAlone(service, corpus.get(0));
            }
            if (phases.contains("2")) {
                System.out.printf("%n== 2. %d hostile clients beside %d normal clients for %d s, default "
                        + "configuration; load average at start %s%n", hostileClients, normalClients,
                        seconds.toSeconds(), loadAverage());
                System.out.printf("service peak RSS before the phase %d MiB (VmHWM since its start: the refresh and "
                        + "art build of the sample, the warm-ups); reset now%n", peakRssKb(service.pid()) / 1024);
                nativeMemory(service);
                Files.writeString(Path.of("/proc/" + service.pid() + "/clear_refs"), "5");
                HostileLoad.Result mix = HostileLoad.run(service.baseUrl(), corpus, hostileClients, crops,
                        normalClients, null, seconds);

                System.out.print(mix.report());
                System.out.printf("load average at end %s; service peak RSS (VmHWM) during the phase %d MiB%n",
                        loadAverage(), peakRssKb(service.pid()) / 1024);
                nativeMemory(service);
            }
            if (phases.contains("2b")) {
                System.out.printf("%n== 2b. %d hostile clients beside one normal client matching once a second for "
                        + "%d s (issue 23, item 5), default configuration; load average at start %s%n",
                        hostileClients, seconds.toSeconds(), loadAverage());
                HostileLoad.Result paced = HostileLoad.run(service.baseUrl(), corpus, hostileClients, crops, 1,
                        Duration.ofSeconds(1), seconds);
                System.out.print(paced.report());
                System.out.printf("load average at end %s%n", loadAverage());
            }
        }

        // 3: the memory budget full, while a refresh and an art build run
        if (phases.contains("3")) {
            memory(postgres, kafka, standIn, dir, bulk, heaviest, seconds, hostileClients, normalClients, cards);
        }
        standIn.close();
        kafka.close();
        postgres.close();
        System.exit(0);
    }

    /** Phase 1: the issue's scan flood alone on the idle service, 20 times. */
    private static void floodAlone(ServiceProcess service, HostileImages.Sample flood) throws Exception {
        List<Long> floodTimes = new ArrayList<>();
        String floodAnswer = null;
        for (int k = 0; k < 20; k++) {
            HostileLoad.Answer answer = HostileLoad.send(HTTP, service.baseUrl(), flood.name(), "image/jpeg",
                    flood.body());
            floodTimes.add(answer.millis());
            floodAnswer = answer.status() + " " + answer.type();
        }
        floodTimes.sort(null);
        System.out.printf("%n== 1. the scan flood alone (%d bytes, 20,000 scans), idle service: answered %s; "
                + "p50 %d ms, max %d ms (20 sends); load average %s%n", flood.body().length, floodAnswer,
                HostileLoad.percentile(floodTimes, 50), floodTimes.get(floodTimes.size() - 1), loadAverage());
    }

    /** Phase 3: the heaviest admitted uploads while a refresh and the art build it starts run; the peak RSS. */
    private static void memory(EmbeddedPostgresServer postgres, EmbeddedKafkaBroker kafka, ScryfallStandIn standIn,
            Path dir, Path bulk, byte[] heaviest, Duration seconds, int hostileClients, int normalClients, int cards)
            throws Exception {
        try (ServiceProcess service = start(postgres, kafka, standIn, dir, "memory",
                Map.of("card-catalog.art.expensive-match-concurrency", "2"))) {
            BenchRefreshes.settle(service, kafka);
            List<byte[]> crops = crops(postgres, 8);
            String version = "default-cards-20261201000000";
            standIn.serveDefaultCardsFile(version, Files.readAllBytes(bulk));
            List<HostileImages.Sample> heavy = List.of(new HostileImages.Sample("6,000 x 6,000 progressive",
                    "image/jpeg", heaviest, null));
            Files.writeString(Path.of("/proc/" + service.pid() + "/clear_refs"), "5");
            AtomicBoolean sampling = new AtomicBoolean(true);
            AtomicLong maxRss = new AtomicLong();
            AtomicLong maxReserved = new AtomicLong();
            Thread sampler = new Thread(() -> sample(service, sampling, maxRss, maxReserved), "rss-sampler");
            sampler.start();
            System.out.printf("%n== 3. memory: %d clients sending the heaviest admitted upload beside %d normal "
                    + "clients, while a refresh of %,d cards runs and then %d s of the art build it starts; "
                    + "expensive-match-concurrency=2; load average at start %s%n", hostileClients, normalClients,
                    cards, seconds.toSeconds(), loadAverage());
            long start = System.nanoTime();
            String refresh = BenchRefreshes.start(HTTP, service.baseUrl());
            AtomicBoolean stop = new AtomicBoolean();
            HostileLoad.Result[] result = new HostileLoad.Result[1];
            Thread mixThread = new Thread(() -> {
                try {
                    result[0] = runUntil(service, heavy, hostileClients, crops, normalClients, stop);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "memory-mix");
            mixThread.start();
            BenchRefreshes.awaitSucceeded(HTTP, service.baseUrl(), refresh, Duration.ofMillis(500));
            double refreshSeconds = (System.nanoTime() - start) / 1e9;
            String build = awaitBuildRunning(postgres);
            System.out.printf("refresh of %,d cards applied in %.0f s; art build %s running%n", cards, refreshSeconds,
                    build);
            Thread.sleep(seconds.toMillis());
            stop.set(true);
            mixThread.join();
            sampling.set(false);
            sampler.join();
            System.out.print(result[0].report());
            System.out.printf("art build after %d s: %s%n", seconds.toSeconds(), buildProgress(postgres, build));
            System.out.printf("service peak RSS (VmHWM) %d MB; largest VmRSS sampled %d MB; largest "
                    + "art_decode_memory_reserved_bytes sampled %d MB; load average at end %s%n",
                    peakRssKb(service.pid()) / 1024, maxRss.get() / 1024, maxReserved.get() >> 20, loadAverage());
            nativeMemory(service);
        }
    }

    /** The mix, until {@code stop} is set, in runs of 5 s whose answers are put together. */
    private static HostileLoad.Result runUntil(ServiceProcess service, List<HostileImages.Sample> heavy, int hostile,
            List<byte[]> crops, int normal, AtomicBoolean stop) throws InterruptedException {
        List<HostileLoad.Answer> normalAnswers = new ArrayList<>();
        List<HostileLoad.Answer> hostileAnswers = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        double seconds = 0;
        while (!stop.get()) {
            HostileLoad.Result part = HostileLoad.run(service.baseUrl(), heavy, hostile, crops, normal, null,
                    Duration.ofSeconds(5));
            normalAnswers.addAll(part.normal());
            hostileAnswers.addAll(part.hostile());
            failures.addAll(part.failures());
            seconds += part.seconds();
        }
        return new HostileLoad.Result(normalAnswers, hostileAnswers, failures, seconds);
    }

    private static ServiceProcess start(EmbeddedPostgresServer postgres, EmbeddedKafkaBroker kafka,
            ScryfallStandIn standIn, Path dir, String name, Map<String, String> overrides) {
        Map<String, String> config = ServiceProcess.infrastructure(postgres, kafka, standIn);
        config.put("card-catalog.data-dir", dir.resolve(name).toString());
        config.put("card-catalog.art.image-hosts", "cards.scryfall.io,c1.scryfall.com");
        config.put("card-catalog.art.index-poll-interval", "1s");
        config.putAll(overrides);
        List<String> jvm = new ArrayList<>(BenchRefreshes.serviceJvm("256m"));
        jvm.add("-Dorg.bytedeco.javacpp.cachedir=" + dir.resolve("javacpp"));
        // e.g. -Dbench.service-options=-XX:NativeMemoryTracking=summary, and MALLOC_ARENA_MAX=2 in bench.service-env
        String extra = System.getProperty("bench.service-options", "");
        if (!extra.isBlank()) {
            jvm.addAll(List.of(extra.trim().split("\\s+")));
        }
        Map<String, String> environment = new java.util.HashMap<>(TestUsers.environment());
        environment.put("MALLOC_ARENA_MAX", "2"); // as the Deployment runs it; bench.service-env may change it
        for (String pair : System.getProperty("bench.service-env", "").split(",")) {
            if (pair.contains("=")) {
                environment.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
            }
        }
        ServiceProcess service = ServiceProcess.start(0, jvm, config, environment, dir.resolve(name + ".log"),
                Duration.ofMinutes(3));
        System.out.printf("service %s: pid %d, %s, %s, MALLOC_ARENA_MAX=%s%n", name, service.pid(), jvm, overrides,
                environment.get("MALLOC_ARENA_MAX"));
        return service;
    }

    private static void awaitIndex(ServiceProcess service) throws Exception {
        long start = System.nanoTime();
        while (HTTP.send(HttpRequest.newBuilder(URI.create(service.baseUrl() + "/api/art-index")).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode() != 200) {
            if (System.nanoTime() - start > Duration.ofMinutes(20).toNanos()) {
                throw new IllegalStateException("no art index after 20 minutes");
            }
            Thread.sleep(1000);
        }
        System.out.printf("art index built %.0f s after the refresh%n", (System.nanoTime() - start) / 1e9);
    }

    /** Guide crops of {@code count} indexed artworks. */
    private static List<byte[]> crops(EmbeddedPostgresServer postgres, int count) throws Exception {
        List<byte[]> crops = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(), EmbeddedPostgresServer.USER,
                EmbeddedPostgresServer.PASSWORD); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT image_uri FROM art_fingerprint ORDER BY illustration_id LIMIT " + count)) {
            while (rows.next()) {
                crops.add(CaptureSimulator.captureJpeg(ScryfallStandIn.imageSeedOf(rows.getString(1)), 11));
            }
        }
        return crops;
    }

    private static String awaitBuildRunning(EmbeddedPostgresServer postgres) throws Exception {
        for (int k = 0; k < 600; k++) {
            try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(), EmbeddedPostgresServer.USER,
                    EmbeddedPostgresServer.PASSWORD); Statement statement = connection.createStatement();
                    ResultSet row = statement.executeQuery("SELECT id::text FROM job WHERE kind = 'art-build' "
                            + "AND state = 'running' ORDER BY created_at DESC LIMIT 1")) {
                if (row.next()) {
                    return row.getString(1);
                }
            }
            Thread.sleep(100);
        }
        return "(none running)";
    }

    private static String buildProgress(EmbeddedPostgresServer postgres, String build) throws Exception {
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(), EmbeddedPostgresServer.USER,
                EmbeddedPostgresServer.PASSWORD); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT state, (SELECT count(*) FROM art_fingerprint) "
                        + "FROM job WHERE id::text = '" + build + "'")) {
            return row.next() ? row.getString(1) + ", " + row.getLong(2) + " artworks fingerprinted" : "unknown";
        }
    }

    private static void sample(ServiceProcess service, AtomicBoolean sampling, AtomicLong maxRss,
            AtomicLong maxReserved) {
        Pattern reserved = Pattern.compile("(?m)^art_decode_memory_reserved_bytes (\\S+)");
        int k = 0;
        while (sampling.get()) {
            try {
                for (String line : Files.readAllLines(Path.of("/proc/" + service.pid() + "/status"))) {
                    if (line.startsWith("VmRSS:")) {
                        maxRss.accumulateAndGet(Long.parseLong(line.replaceAll("[^0-9]", "")), Math::max);
                    }
                }
                if (k++ % 10 == 0) {
                    String metrics = HTTP.send(HttpRequest.newBuilder(URI.create(service.managementUrl()
                            + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
                    Matcher m = reserved.matcher(metrics);
                    if (m.find()) {
                        maxReserved.accumulateAndGet((long) Double.parseDouble(m.group(1)), Math::max);
                    }
                }
                Thread.sleep(50);
            } catch (Exception e) {
                return;
            }
        }
    }

    /** The JVM's own accounting of its memory (committed), when the service runs with native memory tracking. */
    private static void nativeMemory(ServiceProcess service) {
        if (!System.getProperty("bench.service-options", "").contains("NativeMemoryTracking")) {
            return;
        }
        try {
            Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    String.valueOf(service.pid()), "VM.native_memory", "summary").redirectErrorStream(true).start();
            String out = new String(jcmd.getInputStream().readAllBytes());
            jcmd.waitFor();
            out.lines().filter(l -> l.startsWith("Total") || l.matches("-\\s+\\S.*\\(reserved=.*"))
                    .forEach(l -> System.out.println("  NMT " + l.trim()));
        } catch (Exception e) {
            System.out.println("  NMT: " + e);
        }
    }

    private static long peakRssKb(long pid) throws java.io.IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    private static String loadAverage() throws java.io.IOException {
        String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
        return fields[0] + " " + fields[1] + " " + fields[2];
    }
}
