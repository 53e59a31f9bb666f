package dev.cardcatalog.scryfall;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.core.http.HttpClient;
import io.vertx.mutiny.core.http.HttpClientResponse;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * The one way into Scryfall (SERVICE.md §3). API calls go through the reactive REST client {@link ScryfallApi};
 * bulk files and images through a Vert.x HTTP client that streams. Every request carries the configured User-Agent
 * and an Accept header, and goes through {@link ScryfallCalls}: request spacing, the quiet window and the
 * Retry-After rule. The spacing holds where Scryfall counts it, on arrival: a file or image request takes its slot
 * once its connection is set up and restarts the spacing when it is written; an API request (the REST client has no
 * hook between the two) restarts it again when its answer arrives.
 *
 * <p>Errors: {@link RateLimitedException} (asked to wait longer than the client does, or rate limited on every
 * attempt), {@link ScryfallUnavailableException} (5xx or network errors on every attempt), and
 * {@link ScryfallRequestException} (a 4xx other than 429, never retried).
 */
@ApplicationScoped
public class ScryfallClient {

    private final ScryfallApi api;
    private final ScryfallCalls calls;
    private final ScryfallConfig config;
    private final ObjectMapper json;
    private final String baseUrl;
    private final HttpClient files;

    public ScryfallClient(@RestClient ScryfallApi api, ScryfallCalls calls, ScryfallConfig config, ObjectMapper json,
            Vertx vertx, @ConfigProperty(name = "quarkus.rest-client.scryfall.url") String baseUrl) {
        this.api = api;
        this.calls = calls;
        this.config = config;
        this.json = json;
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.files = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout((int) config.connectTimeout().toMillis())
                .setIdleTimeout((int) config.readTimeout().toSeconds())
                .setIdleTimeoutUnit(TimeUnit.SECONDS)
                .setTryUseCompression(false)
                .setKeepAlive(true)
                .setMaxPoolSize(8));
    }

    @PreDestroy
    void close() {
        files.closeAndAwait();
    }

    /** {@code GET /bulk-data}: the bulk files Scryfall publishes, in either item shape. */
    public Uni<List<BulkDataItem>> bulkData() {
        return getJson(baseUrl + "/bulk-data").map(list -> {
            List<BulkDataItem> items = new ArrayList<>();
            for (JsonNode item : list.path("data")) {
                items.add(json.convertValue(item, BulkDataItem.class));
            }
            return items;
        });
    }

    /** {@code GET /sets}, following {@code has_more} / {@code next_page} to the last page. */
    public Uni<List<ScryfallSet>> sets() {
        return setsFrom(baseUrl + "/sets", new ArrayList<>(), 0);
    }

    private Uni<List<ScryfallSet>> setsFrom(String url, List<ScryfallSet> sets, int page) {
        if (page > 1_000) {
            return Uni.createFrom().failure(new ScryfallUnavailableException(url, 200,
                    "Scryfall's /sets kept answering has_more after 1,000 pages", null));
        }
        return getJson(url).chain(list -> {
            for (JsonNode set : list.path("data")) {
                sets.add(ScryfallSet.of(set));
            }
            String next = list.path("next_page").asText(null);
            if (list.path("has_more").asBoolean(false) && next != null && !next.isBlank()) {
                return setsFrom(next, sets, page + 1);
            }
            return Uni.createFrom().item(sets);
        });
    }

    /**
     * An API GET under the Retry-After rule, parsed as JSON, through the reactive REST client {@link ScryfallApi}.
     * Scryfall counts a request when it arrives, some time between its spacing slot and its answer: a cold client's
     * connection set-up can delay the arrival past the slot, so the next API request is spaced from this one's
     * answer as well ({@link ScryfallCalls.Wire#sent()} when it comes), never closer than the spacing on arrival.
     */
    Uni<JsonNode> getJson(String url) {
        return calls.call(url, ScryfallCalls.Lane.API, wire -> wire.ready().chain(() -> api.get(url))
                .onItemOrFailure().invoke((answer, failure) -> wire.sent())
                .map(response -> {
                    if (response.getStatus() / 100 != 2) {
                        throw new HttpStatusFailure(response.getStatus(), headers(response), errorBody(response));
                    }
                    try {
                        return json.readTree(response.getEntity());
                    } catch (java.io.IOException e) {
                        throw new UncheckedIOException("Scryfall's answer to " + url + " is not JSON", e);
                    }
                }));
    }

    /**
     * Opens a file (a bulk file) for reading, under the Retry-After rule: the call ends when a 200 answer's headers
     * arrive; the body is then read through {@link FileResponse#body()} at the reader's pace. The body is passed on
     * as it came ({@code Content-Encoding} is not undone).
     */
    public Uni<FileResponse> openFile(String url) {
        return calls.call(url, ScryfallCalls.Lane.FILE, wire -> send(url, "application/json, application/gzip;q=0.9, */*;q=0.1", wire)
                .chain(response -> {
                    if (response.statusCode() != 200) {
                        return failWith(url, response);
                    }
                    response.pause();
                    String length = response.getHeader("Content-Length");
                    return Uni.createFrom().item(new FileResponse(url,
                            length == null ? -1 : Long.parseLong(length.trim()),
                            response.getHeader("Content-Encoding"),
                            response.toMulti().onFailure().transform(cause -> new ScryfallUnavailableException(
                                    url, 200, "the download of " + url + " broke off: " + cause.getMessage(), cause))));
                }));
    }

    /**
     * Fetches an image's bytes under the Retry-After rule, with {@code Accept: image/*}. A body longer than
     * {@code maxBytes} fails the call with {@link ScryfallRequestException} (status 413) without reading the rest.
     * The URL must already have been checked against the allowed image hosts.
     */
    public Uni<byte[]> image(String url, long maxBytes) {
        String target = config.imageBaseUrlOverride().map(base -> rebase(url, base)).orElse(url);
        return calls.call(target, ScryfallCalls.Lane.IMAGE, wire -> send(target, "image/*", wire).chain(response -> {
            if (response.statusCode() != 200) {
                return failWith(target, response);
            }
            String length = response.getHeader("Content-Length");
            if (length != null && Long.parseLong(length.trim()) > maxBytes) {
                response.request().connection().close();
                return Uni.createFrom().failure(new ScryfallRequestException(target, 413, "too_large", null,
                        "the image is " + length.trim() + " bytes, over the " + maxBytes + "-byte cap"));
            }
            return response.body().map(Buffer::getBytes)
                    .onCancellation().invoke(() -> response.request().reset())
                    .chain(bytes -> bytes.length > maxBytes
                            ? Uni.createFrom().failure(new ScryfallRequestException(target, 413, "too_large", null,
                                    "the image is over the " + maxBytes + "-byte cap"))
                            : Uni.createFrom().item(bytes));
        }));
    }

    private static String rebase(String url, String base) {
        java.net.URI uri = java.net.URI.create(url);
        String root = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        return root + uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    }

    /**
     * A GET on the wire: sets up the connection (or takes one from the pool), waits for the request's spacing slot,
     * writes the request head and tells the spacing it is sent, then ends the request and awaits the answer.
     */
    private Uni<HttpClientResponse> send(String url, String accept, ScryfallCalls.Wire wire) {
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.GET)
                .setAbsoluteURI(url)
                .putHeader("User-Agent", config.userAgent())
                .putHeader("Accept", accept);
        // an attempt stopped before its answer (attempt-timeout) gives its connection back at once
        return files.request(options)
                .chain(request -> wire.ready()
                        .chain(() -> request.sendHead())
                        .invoke(wire::sent)
                        .chain(() -> request.send())
                        .onCancellation().invoke(() -> request.reset()));
    }

    private static <T> Uni<T> failWith(String url, HttpClientResponse response) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        response.headers().forEach(e -> headers.computeIfAbsent(e.getKey().toLowerCase(Locale.ROOT),
                k -> new ArrayList<>()).add(e.getValue()));
        int status = response.statusCode();
        return response.body()
                .map(body -> body.length() > 64 * 1024 ? body.getString(0, 64 * 1024) : body.toString())
                .onFailure().recoverWithItem("")
                .chain(body -> Uni.createFrom().failure(new HttpStatusFailure(status, headers, body)));
    }

    /** The body of a non-2xx answer as text (the client leaves it unread); empty when it cannot be read. */
    private static String errorBody(RestResponse<String> response) {
        try {
            Object entity = response.getEntity();
            if (entity instanceof java.io.InputStream stream) {
                byte[] bytes = stream.readNBytes(64 * 1024);
                return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
            }
            return entity == null ? "" : entity.toString();
        } catch (java.io.IOException | RuntimeException e) {
            return "";
        }
    }

    private static Map<String, List<String>> headers(RestResponse<String> response) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        response.getStringHeaders().forEach((name, values) ->
                headers.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new ArrayList<>()).addAll(values));
        return headers;
    }

    /** The longest one call can take under the rule ({@link ScryfallCalls#longestCall()}). */
    public Duration longestCall() {
        return calls.longestCall();
    }

    /** The base URL of Scryfall's API ({@code quarkus.rest-client.scryfall.url}), without a trailing slash. */
    public String baseUrl() {
        return baseUrl;
    }
}
