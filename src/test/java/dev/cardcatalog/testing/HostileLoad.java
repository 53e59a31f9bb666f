package dev.cardcatalog.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 23's mix against a running service, for {@code HostileUploadsIT} and {@code HostileMixBench}: hostile
 * clients send the hostile corpus ({@link HostileImages#corpus()}) back to back, each starting at its own file,
 * while normal clients match guide crops, either back to back or one every {@code interval}. Every answer is kept
 * with its status, problem type and time (from sending the request to the whole answer read).
 */
public final class HostileLoad {

    private static final Pattern TYPE = Pattern.compile("\"type\":\"[^\"]*/([a-z-]+)\"");

    private HostileLoad() {
    }

    /** One answer: the file sent, its status, its problem type (null for a 200), its time in milliseconds. */
    public record Answer(String file, int status, String type, long millis, String body) {
    }

    /**
     * What a run got.
     *
     * @param normal   the normal clients' answers, in the order they were sent (per client)
     * @param hostile  the hostile clients' answers
     * @param failures requests that got no answer (an I/O error or a timeout), with why
     * @param seconds  how long the mix ran
     */
    public record Result(List<Answer> normal, List<Answer> hostile, List<String> failures, double seconds) {

        /** A report of the run: the normal answers' p50, p99 and max, and each hostile file's answers and times. */
        public String report() {
            StringBuilder out = new StringBuilder();
            List<Long> times = normal.stream().map(Answer::millis).sorted().toList();
            long ok = normal.stream().filter(a -> a.status() == 200).count();
            out.append(String.format(Locale.ROOT, "normal matches: %d in %.0f s (%.1f/s), %d answered 200; p50 %d ms, "
                    + "p99 %d ms, max %d ms%n", times.size(), seconds, times.size() / seconds, ok,
                    percentile(times, 50), percentile(times, 99), times.isEmpty() ? 0 : times.get(times.size() - 1)));
            Map<String, List<Answer>> byFile = new TreeMap<>();
            hostile.forEach(a -> byFile.computeIfAbsent(a.file(), f -> new ArrayList<>()).add(a));
            out.append(String.format(Locale.ROOT, "hostile answers: %d in %.0f s; failures (no answer): %d%n",
                    hostile.size(), seconds, failures.size()));
            out.append(String.format(Locale.ROOT, "  %-34s %6s %7s %7s %7s  %s%n", "file", "sent", "p50 ms", "p99 ms",
                    "max ms", "answers"));
            byFile.forEach((file, answers) -> {
                List<Long> ms = answers.stream().map(Answer::millis).sorted().toList();
                Map<String, Integer> kinds = new TreeMap<>();
                answers.forEach(a -> kinds.merge(a.status() + (a.type() == null ? "" : " " + a.type()), 1,
                        Integer::sum));
                out.append(String.format(Locale.ROOT, "  %-34s %6d %7d %7d %7d  %s%n", file, answers.size(),
                        percentile(ms, 50), percentile(ms, 99), ms.get(ms.size() - 1), kinds));
            });
            return out.toString();
        }
    }

    /**
     * Runs the mix for {@code length} against the service at {@code baseUrl}.
     *
     * @param corpus         the hostile files, sent round-robin
     * @param hostileClients hostile clients, each its own connection
     * @param crops          the normal clients' photos, sent round-robin
     * @param normalClients  normal clients
     * @param interval       the time from one normal match's start to the next one's for each normal client; null
     *                       or zero: back to back
     */
    public static Result run(String baseUrl, List<HostileImages.Sample> corpus, int hostileClients, List<byte[]> crops,
            int normalClients, Duration interval, Duration length) throws InterruptedException {
        ConcurrentLinkedQueue<Answer> hostile = new ConcurrentLinkedQueue<>();
        List<List<Answer>> normal = new ArrayList<>();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        long end = start + length.toNanos();
        ExecutorService clients = Executors.newFixedThreadPool(hostileClients + normalClients);
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < hostileClients; c++) {
            int client = c;
            running.add(clients.submit(() -> {
                HttpClient http = client();
                for (int k = client; System.nanoTime() < end; k++) {
                    HostileImages.Sample sample = corpus.get(k % corpus.size());
                    try {
                        hostile.add(send(http, baseUrl, sample.name(), sample.contentType(), sample.body()));
                    } catch (IOException e) {
                        failures.add(sample.name() + ": " + e);
                    }
                }
                return null;
            }));
        }
        for (int c = 0; c < normalClients; c++) {
            int client = c;
            List<Answer> answers = Collections.synchronizedList(new ArrayList<>());
            normal.add(answers);
            running.add(clients.submit(() -> {
                HttpClient http = client();
                long next = System.nanoTime();
                for (int k = client; System.nanoTime() < end; k++) {
                    try {
                        answers.add(send(http, baseUrl, "guide crop " + k % crops.size(), "image/jpeg",
                                crops.get(k % crops.size())));
                    } catch (IOException e) {
                        failures.add("guide crop: " + e);
                    }
                    if (interval != null && !interval.isZero()) {
                        next += interval.toNanos();
                        long wait = next - System.nanoTime();
                        if (wait > 0) {
                            TimeUnit.NANOSECONDS.sleep(wait);
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> client : running) {
            try {
                client.get(length.toSeconds() + 120, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                failures.add("a client did not end: " + e);
            }
        }
        clients.shutdownNow();
        List<Answer> allNormal = new ArrayList<>();
        normal.forEach(allNormal::addAll);
        return new Result(allNormal, new ArrayList<>(hostile), new ArrayList<>(failures),
                (System.nanoTime() - start) / 1e9);
    }

    /** A client as the load's clients are: HTTP/1.1 (the service speaks no other), a 10 s connect timeout. */
    public static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    /** Sends one photo and reads the whole answer. */
    public static Answer send(HttpClient http, String baseUrl, String name, String contentType, byte[] body)
            throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/api/art-index/matches"))
                .header("Content-Type", contentType).timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        long start = System.nanoTime();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        long millis = (System.nanoTime() - start) / 1_000_000;
        Matcher type = TYPE.matcher(response.body());
        return new Answer(name, response.statusCode(), response.statusCode() == 200 || !type.find() ? null
                : type.group(1), millis, response.body());
    }

    /** The {@code p}-th percentile of sorted values (nearest rank), 0 when there are none. */
    public static long percentile(List<Long> sorted, int p) {
        if (sorted.isEmpty()) {
            return 0;
        }
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1)));
    }
}
