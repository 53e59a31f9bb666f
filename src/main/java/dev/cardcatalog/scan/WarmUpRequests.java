package dev.cardcatalog.scan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.vertx.http.HttpServerStart;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.ObservesAsync;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The match warm-up's requests over HTTP ({@link MatchWarmUp}, {@code card-catalog.art.match-warm-up-over-http}):
 * its drawn photos posted to this replica's own endpoint over loopback, {@value #CLIENTS} at a time, so that the
 * first photos of a new replica do not compile the HTTP path and the card search themselves (docs/benchmarks.md,
 * "What the cold minute waits for": the start's in-process passes leave both to the first minute's requests).
 *
 * <p>The requests go to {@value #PATH}, the match endpoint's own upload handling ({@link MatchUploads}), turns,
 * decoding, card search and answer, but against the warm-up's index of drawn artworks instead of the art index, and
 * not counted in {@code http.server.requests} ({@code quarkus.micrometer.binder.http-server.ignore-patterns}) and
 * sent with a sampled-out {@code traceparent}, so that a rollout's warm-ups do not show as slow matches on the
 * dashboard or as thousands of traces. The path answers only requests that carry
 * {@value #HEADER} with this process's token, 128 random bits drawn at start and never written anywhere; any other
 * request to it is answered 404 before its body is read, as a path that does not exist.
 */
@ApplicationScoped
public class WarmUpRequests {

    /** The path of the warm-up's requests; 404 to anyone without the token. */
    static final String PATH = MatchUploads.PATH + "/warm-up";
    /** The header that carries the token. */
    static final String HEADER = "Card-Catalog-Warm-Up";
    /** Requests in flight at once: two a core of the 2-core machine, as a loaded replica has. */
    static final int CLIENTS = 4;
    /** The index name the warm-up's answers give. */
    static final String INDEX = "warm-up";

    /**
     * A W3C trace context whose sampled flag is off (Trace Context §3.2.2.5), so that the service's parent-based
     * sampler records no span of the warm-up's requests: no trace per warm-up request in the collector.
     */
    private static final String SAMPLED_OUT = "00-" + HexFormat.of().formatHex(randomBytes()) + "-"
            + HexFormat.of().formatHex(randomBytes(), 0, 8) + "-00";

    private static final byte[] TOKEN = HexFormat.of().formatHex(randomBytes()).getBytes(StandardCharsets.US_ASCII);

    private final CompletableFuture<URI> endpoint = new CompletableFuture<>();
    private final ObjectMapper json;

    public WarmUpRequests(ObjectMapper json) {
        this.json = json;
    }

    /**
     * What the requests gave: how many were sent and answered 200, how many cards the answered ones drew, and how many
     * of those were found, confident and matched to their artwork.
     */
    record Outcome(int sent, int answered, int drawn, int found) {
    }

    /** Whether {@code header}, a request's {@value #HEADER}, is this process's token (compared in constant time). */
    static boolean admits(String header) {
        return header != null && MessageDigest.isEqual(TOKEN, header.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Quarkus started the HTTP server (an event it fires asynchronously): its host and port (when the options say 0,
     * a random port, the one Quarkus chose, from its configuration).
     */
    void serverStarted(@ObservesAsync HttpServerStart start) {
        String host = start.options().getHost();
        if (host == null || host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
            host = "localhost";
        }
        int port = start.options().getPort();
        if (port <= 0) {
            port = ConfigProvider.getConfig().getValue(LaunchMode.current() == LaunchMode.TEST
                    ? "quarkus.http.test-port" : "quarkus.http.port", Integer.class);
        }
        endpoint.complete(URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port + PATH));
    }

    /**
     * Posts {@code photos} in turn, {@value #CLIENTS} at a time, for {@code duration} after the HTTP server is up.
     *
     * @param photos     JPEG or PNG bodies, and the artworks their cards should be matched to, confident
     * @param duration   how long to send: no request starts after it, the last ones end within their 30 s timeout
     * @param serverWait how long to wait for the HTTP server to start
     * @throws IllegalStateException when the service has no plain HTTP server ({@code quarkus.http.insecure-requests
     *                               =disabled}) or it did not start within {@code serverWait}
     */
    Outcome run(List<MatchWarmUp.Photo> photos, Duration duration, Duration serverWait)
            throws InterruptedException {
        if ("disabled".equalsIgnoreCase(ConfigProvider.getConfig()
                .getOptionalValue("quarkus.http.insecure-requests", String.class).orElse("enabled"))) {
            throw new IllegalStateException("quarkus.http.insecure-requests=disabled: no plain HTTP server to send to");
        }
        URI uri;
        try {
            uri = endpoint.get(serverWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("no HTTP server started within " + serverWait.toSeconds() + " s");
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        AtomicInteger sent = new AtomicInteger();
        AtomicInteger answered = new AtomicInteger();
        AtomicInteger drawn = new AtomicInteger();
        AtomicInteger found = new AtomicInteger();
        long end = System.nanoTime() + duration.toNanos();
        Thread[] clients = new Thread[CLIENTS];
        for (int c = 0; c < CLIENTS; c++) {
            int first = c;
            clients[c] = new Thread(() -> {
                for (int k = first; System.nanoTime() < end && !Thread.currentThread().isInterrupted(); k++) {
                    MatchWarmUp.Photo photo = photos.get(k % photos.size());
                    byte[] body = photo.body();
                    sent.incrementAndGet();
                    try {
                        HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(uri)
                                .header(HEADER, new String(TOKEN, StandardCharsets.US_ASCII))
                                .header("traceparent", SAMPLED_OUT)
                                .header("Content-Type", body[0] == (byte) 0x89 ? "image/png" : "image/jpeg")
                                .timeout(Duration.ofSeconds(30))
                                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                                HttpResponse.BodyHandlers.ofByteArray());
                        if (response.statusCode() == 200) {
                            answered.incrementAndGet();
                            drawn.addAndGet(photo.drawn().size());
                            found.addAndGet(confident(response.body(), photo.drawn()));
                        }
                    } catch (IOException e) {
                        // a refused or reset connection is one request that warmed nothing; the next is tried
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "match-warm-up-client-" + c);
            clients[c].setDaemon(true);
            clients[c].start();
        }
        for (Thread thread : clients) {
            thread.join();
        }
        return new Outcome(sent.get(), answered.get(), drawn.get(), found.get());
    }

    /** How many of the answer's cards are confident and matched to one of {@code drawn}. */
    private int confident(byte[] answer, Set<UUID> drawn) throws IOException {
        int found = 0;
        for (JsonNode card : json.readTree(answer).path("cards")) {
            String artwork = card.path("matches").path(0).path("illustration_id").asText();
            if ("confident".equals(card.path("status").asText())
                    && drawn.stream().anyMatch(drawnArtwork -> drawnArtwork.toString().equals(artwork))) {
                found++;
            }
        }
        return found;
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[16];
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }
}
