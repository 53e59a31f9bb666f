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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The one way into Scryfall (SERVICE.md §3). API calls, bulk files and images go through one Vert.x HTTP client
 * (files stream). Every request carries the configured User-Agent and an Accept header, and goes through
 * {@link ScryfallCalls}: request spacing, the quiet window and the Retry-After rule. Not a REST client: a request
 * takes its spacing slot only once its connection is set up, and reports when it is written, so the spacing holds
 * where Scryfall counts it (on arrival); a REST client offers no hook between the two.
 *
 * <p>Errors: {@link RateLimitedException} (asked to wait longer than the client does, or rate limited on every
 * attempt), {@link ScryfallUnavailableException} (5xx or network errors on every attempt), and
 * {@link ScryfallRequestException} (a 4xx other than 429, never retried).
 */
@ApplicationScoped
public class ScryfallClient {

    private final ScryfallCalls calls;
    private final ScryfallConfig config;
    private final ObjectMapper json;
    private final String baseUrl;
    private final HttpClient files;

    public ScryfallClient(ScryfallCalls calls, ScryfallConfig config, ObjectMapper json, Vertx vertx,
            @ConfigProperty(name = "quarkus.rest-client.scryfall.url") String baseUrl) {
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

    /** An API GET under the Retry-After rule, parsed as JSON. */
    Uni<JsonNode> getJson(String url) {
        // Scryfall counts API requests as they arrive, some time between being written and the answer: the next one
        // is spaced from the answer too, so a first request slowed by connection set-up cannot come close to it
        return calls.call(url, ScryfallCalls.Lane.API, wire -> send(url, "application/json", wire)
                .invoke(answer -> wire.sent()).chain(response -> {
            if (response.statusCode() / 100 != 2) {
                return failWith(url, response);
            }
            return response.body().map(body -> {
                try {
                    return json.readTree(body.getBytes());
                } catch (java.io.IOException e) {
                    throw new UncheckedIOException("Scryfall's answer to " + url + " is not JSON", e);
                }
            });
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
            return response.body().map(Buffer::getBytes).chain(bytes -> bytes.length > maxBytes
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
        return files.request(options)
                .chain(request -> wire.ready()
                        .chain(() -> request.sendHead())
                        .invoke(wire::sent)
                        .chain(() -> request.send()));
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

    /** The base URL of Scryfall's API ({@code quarkus.rest-client.scryfall.url}), without a trailing slash. */
    public String baseUrl() {
        return baseUrl;
    }
}
