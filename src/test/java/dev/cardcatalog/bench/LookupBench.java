package dev.cardcatalog.bench;

import dev.cardcatalog.testing.EmbeddedKafkaBroker;
import dev.cardcatalog.testing.EmbeddedPostgresServer;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ServiceProcess;
import dev.cardcatalog.testing.TestUsers;
import dev.cardcatalog.testing.TestData;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import org.HdrHistogram.Histogram;

/**
 * The lookup benchmark (docs/benchmarks.md, issue 11): the packaged service, heap capped, over a catalog refreshed
 * from a generated bulk file of about 110,000 cards, answers three kinds of request at a fixed, open-loop rate
 * (default 200 a second), each kind on its own: {@code GET /api/cards?name=} (a word or a fragment of a random
 * card's name, some matching thousands of cards, some none), {@code GET /api/cards/{id}} and
 * {@code GET /api/sets/{code}/cards/{number}?lang=}. Requests are sent on schedule whether or not earlier ones have
 * answered; a latency runs from the request's scheduled time (so a stall is not hidden: no coordinated omission)
 * to its whole answer, recorded in an HdrHistogram.
 *
 * <p>The by-id and by-set-and-number kinds run first, the name search last, so a backlog of slow searches cannot
 * delay the others' answers.
 *
 * <p>Arguments: {@code <bulk file> [rate=200] [seconds per kind=30] [heap=256m] [name search rate=rate]}.
 */
public final class LookupBench {


    private LookupBench() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int rate = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 30;
        String heap = args.length > 3 ? args[3] : "256m";
        int nameRate = args.length > 4 ? Integer.parseInt(args[4]) : rate;

        EmbeddedPostgresServer postgres = EmbeddedPostgresServer.shared();
        EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.shared();
        kafka.createServiceTopics();
        ScryfallStandIn standIn = ScryfallStandIn.shared();
        standIn.serveDefaultCardsFile("default-cards-20261129000000", Files.readAllBytes(file));
        Path data = Path.of("target/bench/lookup-data").toAbsolutePath();
        TestData.deleteTree(data);
        Map<String, String> config = ServiceProcess.infrastructure(postgres, kafka, standIn);
        config.put("card-catalog.data-dir", data.toString());
        config.put("card-catalog.art.enabled", "false");
        Path log = Path.of("target/bench/lookup-service.log").toAbsolutePath();
        Files.deleteIfExists(log);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .executor(Executors.newFixedThreadPool(4)).connectTimeout(Duration.ofSeconds(5)).build();
        // the load: Vert.x's HTTP client on one event loop, far lighter per request than the JDK's
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        io.vertx.core.http.HttpClient load = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
                new PoolOptions().setHttp1MaxSize(64));
        try (ServiceProcess service = ServiceProcess.start(0, BenchRefreshes.serviceJvm(heap), config,
                TestUsers.environment(), log, Duration.ofMinutes(3))) {
            String base = service.baseUrl();
            refresh(http, base);
            settle(postgres);
            System.out.printf("name index read %.1f s after the settling%n",
                    BenchRefreshes.awaitNameIndex(http, service, postgres));
            List<String[]> cards = sample(postgres, 5_000);
            System.out.printf("catalog: %d active cards; service pid %d, -Xmx%s; %d requests/s, %d s per kind%n",
                    activeCards(postgres), service.pid(), heap, rate, seconds);
            Random random = new Random(11);
            IntFunction<String> byName = i -> base + "/api/cards?name="
                    + URLEncoder.encode(nameQuery(cards.get(random.nextInt(cards.size()))[3], random),
                            StandardCharsets.UTF_8);
            IntFunction<String> byId = i -> base + "/api/cards/" + cards.get(random.nextInt(cards.size()))[0];
            IntFunction<String> bySetNumber = i -> {
                String[] card = cards.get(random.nextInt(cards.size()));
                return base + "/api/sets/" + card[1] + "/cards/"
                        + URLEncoder.encode(card[2], StandardCharsets.UTF_8).replace("+", "%20") + "?lang=" + card[4];
            };
            System.out.printf("load average before: %s%n", loadAverage());
            // every kind warmed up before any is measured, so that the first measured does not also pay for the
            // service's and PostgreSQL's first touches of what they share
            run(load, byId, rate, 5);
            run(load, bySetNumber, rate, 5);
            run(load, byName, nameRate, 5);
            report("GET /api/cards/{id}", rate, run(load, byId, rate, seconds));
            report("GET /api/sets/{code}/cards/{number}", rate, run(load, bySetNumber, rate, seconds));
            report("GET /api/cards?name=", nameRate, run(load, byName, nameRate, seconds));
            System.out.printf("load average after: %s%n", loadAverage());
        }
        vertx.close().toCompletionStage().toCompletableFuture().join();
        standIn.close();
        kafka.close();
        postgres.close();
        System.exit(0);
    }

    /** A name query as a user types it: one word of the name, or a fragment of 3 to 12 characters, or no match. */
    static String nameQuery(String name, Random random) {
        String[] words = name.toLowerCase(Locale.ROOT).split("[^\\p{L}]+");
        List<String> usable = new ArrayList<>();
        for (String word : words) {
            if (word.length() >= 3) {
                usable.add(word);
            }
        }
        int kind = random.nextInt(10);
        if (kind == 0 || usable.isEmpty()) {
            return "zq" + random.nextInt(1000) + "x";
        }
        if (kind < 6) {
            return usable.get(random.nextInt(usable.size()));
        }
        String plain = name.toLowerCase(Locale.ROOT);
        int length = Math.min(plain.length(), 3 + random.nextInt(10));
        int from = random.nextInt(plain.length() - length + 1);
        return plain.substring(from, from + length).trim().isEmpty() ? usable.get(0)
                : plain.substring(from, from + length);
    }

    private record Result(Histogram latencies, long errors, long sent, double seconds) {
    }

    /**
     * Sends {@code rate} requests a second for {@code seconds}, on schedule, through Vert.x's HTTP client (one event
     * loop, keep-alive connections opened as needed); records each from its scheduled time to its whole body.
     */
    private static Result run(io.vertx.core.http.HttpClient load, IntFunction<String> urls, int rate, int seconds) throws Exception {
        Histogram histogram = new Histogram(Duration.ofMinutes(1).toNanos(), 3);
        AtomicLong errors = new AtomicLong();
        int total = rate * seconds;
        long interval = 1_000_000_000L / rate;
        CountDownLatch done = new CountDownLatch(total);
        long start = System.nanoTime() + 10_000_000;
        for (int i = 0; i < total; i++) {
            long scheduled = start + i * interval;
            long wait = scheduled - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            String url = urls.apply(i);
            load.request(new RequestOptions().setMethod(HttpMethod.GET).setAbsoluteURI(url).setTimeout(30_000))
                    .compose(request -> request.send().compose(response -> response.body()
                            .map(body -> response.statusCode() == 200 ? null : response.statusCode() + " " + body)))
                    .onComplete(outcome -> {
                        long latency = System.nanoTime() - scheduled;
                        synchronized (histogram) {
                            histogram.recordValue(Math.min(latency, histogram.getHighestTrackableValue()));
                        }
                        String error = outcome.failed() ? outcome.cause().toString() : outcome.result();
                        if (error != null && errors.incrementAndGet() <= 3) {
                            System.out.println("  error: " + url + " " + error);
                        }
                        done.countDown();
                    });
        }
        done.await();
        return new Result(histogram, errors.get(), total, (System.nanoTime() - start) / 1e9);
    }

    private static void report(String kind, int rate, Result result) {
        Histogram h = result.latencies();
        System.out.printf("%-36s %3d/s: %d requests in %.1f s, %d errors: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, "
                + "p99.9 %.2f ms, max %.2f ms%n", kind, rate, result.sent(), result.seconds(), result.errors(),
                h.getValueAtPercentile(50) / 1e6, h.getValueAtPercentile(90) / 1e6, h.getValueAtPercentile(99) / 1e6,
                h.getValueAtPercentile(99.9) / 1e6, h.getMaxValue() / 1e6);
    }

    private static void refresh(HttpClient http, String base) throws Exception {
        long start = System.nanoTime();
        BenchRefreshes.awaitSucceeded(http, base, BenchRefreshes.start(http, base), Duration.ofMillis(200));
        System.out.printf("refreshed in %.1f s%n", (System.nanoTime() - start) / 1e9);
    }

    /**
     * Lets the catalog settle as it has for days after a weekly refresh: the table vacuumed and analysed and its
     * pages written out, instead of autovacuum and the checkpointer working through the 100,000 new rows during the
     * first kind's measurement.
     */
    private static void settle(EmbeddedPostgresServer postgres) throws Exception {
        long start = System.nanoTime();
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(), EmbeddedPostgresServer.USER,
                EmbeddedPostgresServer.PASSWORD); Statement statement = connection.createStatement()) {
            statement.execute("VACUUM ANALYZE card");
            statement.execute("CHECKPOINT");
        }
        System.out.printf("VACUUM ANALYZE card and CHECKPOINT in %.1f s%n", (System.nanoTime() - start) / 1e9);
    }

    /** Random active cards: id, set code, collector number, name, lang. */
    private static List<String[]> sample(EmbeddedPostgresServer postgres, int count) throws Exception {
        List<String[]> cards = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(), EmbeddedPostgresServer.USER,
                EmbeddedPostgresServer.PASSWORD); Statement statement = connection.createStatement()) {
            statement.execute("SELECT setseed(0.11)");
            try (ResultSet rows = statement.executeQuery("SELECT id::text, set_code, collector_number, name, lang "
                    + "FROM card WHERE retired_at IS NULL ORDER BY random() LIMIT " + count)) {
                while (rows.next()) {
                    cards.add(new String[] {rows.getString(1), rows.getString(2), rows.getString(3),
                        rows.getString(4), rows.getString(5)});
                }
            }
        }
        return cards;
    }

    private static long activeCards(EmbeddedPostgresServer postgres) throws Exception {
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(), EmbeddedPostgresServer.USER,
                EmbeddedPostgresServer.PASSWORD); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT count(*) FROM card WHERE retired_at IS NULL")) {
            row.next();
            return row.getLong(1);
        }
    }

    private static String loadAverage() throws Exception {
        String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
        return fields[0] + " " + fields[1] + " " + fields[2];
    }
}
