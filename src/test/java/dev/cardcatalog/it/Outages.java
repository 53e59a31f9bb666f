package dev.cardcatalog.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.testing.EmbeddedPostgresServer;
import dev.cardcatalog.testing.PrometheusText;
import dev.cardcatalog.testing.ServiceProcess;
import dev.cardcatalog.testing.TcpProxy;
import dev.cardcatalog.testing.TestUsers;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the outage tests share ({@link DatabaseOutageIT}, {@link BrokerOutageIT}): the outage's length, the short
 * back-offs, liveness as Kubernetes judges it, and reading the service's answers, metrics and log. Two classes, so
 * that failsafe's forks run the two kinds of outage side by side (each is mostly waiting).
 */
abstract class Outages {

    /**
     * The 30 s, longer than the 20 s the consumer used to try before it dead-lettered a command it could not
     * register; the system property {@code card-catalog.test.outage-seconds} sets another length (75 to outlast the
     * throttled commit strategy's 60 s age check, which the command channel has off).
     */
    static final Duration OUTAGE = Duration.ofSeconds(Long.getLong("card-catalog.test.outage-seconds", 30));

    /** Short back-offs, so that the outage spans many tries. */
    static final Map<String, String> SHORT_BACK_OFF = Map.of(
            "card-catalog.outage.first-back-off", "200ms",
            "card-catalog.outage.max-back-off", "1s",
            "card-catalog.jobs.publish-timeout", "2s",
            "quarkus.log.category.\"dev.cardcatalog.job.DelayRelay\".level", "DEBUG");

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** The short back-offs, with the service's database reached through {@code proxy}, which a test can cut. */
    static Map<String, String> throughProxy(TcpProxy proxy) {
        Map<String, String> config = new HashMap<>(SHORT_BACK_OFF);
        String through = "127.0.0.1:" + proxy.port() + "/" + EmbeddedPostgresServer.DATABASE;
        config.put("quarkus.datasource.jdbc.url", "jdbc:postgresql://" + through);
        config.put("quarkus.datasource.reactive.url", "postgresql://" + through);
        return config;
    }

    /**
     * Polls {@code /q/health/live} every 250 ms while open and keeps its failures, judged as Kubernetes judges its
     * liveness probe, which restarts the pod only after {@code failureThreshold} (default 3) failed probes in a row:
     * a failure is an answer other than 200 (the service saying it is not live, which no outage may cause), or no
     * answer within 5 s three polls in a row (15 s at least). One poll unanswered is a loaded machine's stall, which
     * Kubernetes would try again, not the service's state. The deployment's probe (deploy/base/deployment.yaml) comes
     * every 20 s with the default 1 s timeout, so three failures there span 40 s: this check is the stricter in time.
     */
    static final class Liveness implements AutoCloseable {
        /** Kubernetes' default failureThreshold of a probe (deploy/base/deployment.yaml sets none). */
        static final int UNANSWERED_IN_A_ROW = 3;
        private final List<String> failures = new CopyOnWriteArrayList<>();
        private final AtomicInteger checks = new AtomicInteger();
        private final Thread polling;
        private volatile boolean open = true;

        Liveness(ServiceProcess service) {
            polling = new Thread(() -> {
                int unanswered = 0;
                while (open) {
                    int status = status(service.managementUrl() + "/health/live");
                    checks.incrementAndGet();
                    unanswered = status == -1 ? unanswered + 1 : 0;
                    if (status != 200 && status != -1 || unanswered == UNANSWERED_IN_A_ROW) {
                        failures.add(status + " at " + Instant.now()
                                + (status == -1 ? " (" + UNANSWERED_IN_A_ROW + " polls unanswered in a row)" : ""));
                    }
                    sleep(250);
                }
            }, "liveness-poll");
            polling.setDaemon(true);
            polling.start();
        }

        List<String> failures() {
            return failures;
        }

        int checks() {
            return checks.get();
        }

        @Override
        public void close() throws InterruptedException {
            open = false;
            polling.join(5_000);
        }
    }

    static HttpResponse<String> post(ServiceProcess service, String path) throws IOException,
            InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(service.baseUrl() + path))
                .header("Authorization", TestUsers.OPERATOR_AUTHORIZATION)
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> get(ServiceProcess service, String path) throws IOException,
            InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(service.baseUrl() + path))
                .header("Authorization", TestUsers.OPERATOR_AUTHORIZATION)
                .timeout(Duration.ofSeconds(30))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    static int status(String url) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** A gauge's value on the service's {@code /q/metrics}; -1 when absent. */
    static double metric(ServiceProcess service, String name) throws IOException, InterruptedException {
        String text = HTTP.send(HttpRequest.newBuilder(URI.create(service.managementUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher value = PrometheusText.series(name).matcher(text);
        return value.find() ? Double.parseDouble(value.group(2)) : -1;
    }

    static String jobId(String body) {
        Matcher id = Pattern.compile("\"(?:job_)?id\":\"([0-9a-f-]{36})\"").matcher(body);
        assertThat(id.find()).as(body).isTrue();
        return id.group(1);
    }

    /** The highest attempt the consumer's log says it held a command at; 0 when none. */
    static int heldAttempts(Path log) throws IOException {
        Pattern held = Pattern.compile("command card-catalog\\.commands/\\S+ held, attempt (\\d+)");
        int highest = 0;
        for (String line : lines(log)) {
            Matcher found = held.matcher(line);
            if (found.find()) {
                highest = Math.max(highest, Integer.parseInt(found.group(1)));
            }
        }
        return highest;
    }

    /** How many delayed records the relay's log says it holds. */
    static long relayHeld(Path log) throws IOException {
        return lines(log).stream().filter(line -> line.contains("delayed command card-catalog.commands.delayed/")
                && line.contains(" held until ")).count();
    }

    /** How many times the relay's log says it could not forward a delayed record and holds it. */
    static long relayRetries(Path log) throws IOException {
        return lines(log).stream().filter(line -> line.contains("could not be forwarded")
                && line.contains("held, trying again in")).count();
    }

    static List<String> lines(Path log) throws IOException {
        return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
    }

    static void sleepUntil(long nanoTime) {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            sleep(left / 1_000_000);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
