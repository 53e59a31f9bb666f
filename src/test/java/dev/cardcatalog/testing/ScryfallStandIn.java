package dev.cardcatalog.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * A Scryfall stand-in that speaks real HTTP on a dynamic port and serves the real Scryfall data bundled in
 * {@code src/test/resources/scryfall/} (see its PROVENANCE.md): {@code /bulk-data} in the current shape
 * ({@code jsonl_download_uri}, {@code compressed_size}) or the legacy one ({@code download_uri}, {@code size}), the
 * bulk files themselves, {@code /sets} in pages, generated card images at Scryfall's {@code small} image paths, and
 * whatever a test adds (other bulk files).
 *
 * <p>Like Scryfall, it answers 400 to an API request without a {@code User-Agent} or {@code Accept} header, and
 * 400 {@code generic_user_agent} to a library's default User-Agent.
 *
 * <p>Faults are scripted per path prefix: {@link #enqueue} answers the next matching requests with the given
 * faults in order, {@link #always} answers every matching request. A fault is a status with any headers and body,
 * a cut connection, or a slow body. Every request is recorded with the instant it arrived ({@link #requests()}).
 * {@link #reset()} forgets the script and releases every hold: a slow body still being served is sent whole at once,
 * so that nothing a test scripted slows the next test down (the stand-in lives as long as the JVM).
 *
 * <p>One runs per JVM ({@link #shared()}). Test classes loaded again for another Quarkus test profile get a handle
 * that scripts it over HTTP, through its admin routes under {@code /__stand-in/} (not recorded).
 */
public final class ScryfallStandIn implements AutoCloseable {

    /** The version of the bundled bulk file: the name of the file without its extensions. */
    public static final String SAMPLE_VERSION = "default-cards-20261008210545";
    /** The version of the bundled file as an all-cards file (same cards; served for non-English languages). */
    public static final String SAMPLE_ALL_VERSION = "all-cards-20261008211032";
    /** English paper cards in the bundled sample: what a refresh with languages {@code en} sees. */
    public static final int SAMPLE_ENGLISH_PAPER_CARDS = 827;
    /** Sets in the bundled {@code /sets} answer. */
    public static final int SAMPLE_SETS = 863;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static ScryfallStandIn shared;

    /** The shape of the {@code /bulk-data} items. */
    public enum BulkShape {
        /** Since 2026-07: {@code jsonl_download_uri} to a gzip JSON Lines file, {@code compressed_size}. */
        CURRENT,
        /** Before: {@code download_uri} to a JSON array sent with {@code Content-Encoding: gzip}, {@code size}. */
        LEGACY
    }

    /** A request as the stand-in received it. */
    public record RecordedRequest(String method, String path, String query, Map<String, List<String>> headers,
            Instant receivedAt) {
        public String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null || values.isEmpty() ? null : values.get(0);
        }

        ObjectNode toJson() {
            ObjectNode node = JSON.createObjectNode();
            node.put("method", method);
            node.put("path", path);
            node.put("query", query);
            node.put("receivedAt", receivedAt.toString());
            node.set("headers", JSON.valueToTree(headers));
            return node;
        }

        static RecordedRequest fromJson(JsonNode node) {
            Map<String, List<String>> headers = new LinkedHashMap<>();
            node.path("headers").fields().forEachRemaining(e -> {
                List<String> values = new ArrayList<>();
                e.getValue().forEach(v -> values.add(v.asText()));
                headers.put(e.getKey(), values);
            });
            return new RecordedRequest(node.get("method").asText(), node.get("path").asText(),
                    node.hasNonNull("query") ? node.get("query").asText() : null, headers,
                    Instant.parse(node.get("receivedAt").asText()));
        }
    }

    /** A scripted answer. Build one with the static factories. */
    public record Fault(int status, Map<String, List<String>> headers, byte[] body, long cutAfterBytes,
            boolean closeWithoutAnswer, Duration chunkDelay, int chunkSize) {

        /** Answers {@code status} with a Scryfall-style error body. */
        public static Fault status(int status) {
            String code = switch (status) {
                case 404 -> "not_found";
                case 429 -> "rate_limited";
                case 400 -> "bad_request";
                default -> status >= 500 ? "internal_error" : "error";
            };
            String body = "{\"object\":\"error\",\"code\":\"" + code + "\",\"status\":" + status
                    + ",\"details\":\"Scripted by the stand-in.\"}";
            return new Fault(status, new LinkedHashMap<>(), body.getBytes(StandardCharsets.UTF_8), -1, false, null, 0);
        }

        /** Answers normally: lets a request through ahead of the faults queued after it. */
        public static Fault pass() {
            return new Fault(0, Map.of(), null, -1, false, null, 0);
        }

        /** Closes the connection as soon as the request arrives, without an answer. */
        public static Fault cutConnection() {
            return new Fault(0, Map.of(), new byte[0], -1, true, null, 0);
        }

        /** Serves the normal answer's status line, headers and first {@code bytes} bytes, then closes. */
        public static Fault cutBodyAfter(long bytes) {
            return new Fault(0, Map.of(), null, bytes, false, null, 0);
        }

        /** Serves the normal answer in chunks of {@code chunkSize} bytes, {@code delay} apart. */
        public static Fault slowBody(int chunkSize, Duration delay) {
            return new Fault(0, Map.of(), null, -1, false, delay, chunkSize);
        }

        /** Adds a header (repeat the call to repeat the header). */
        public Fault header(String name, String value) {
            Map<String, List<String>> copy = new LinkedHashMap<>(headers);
            copy.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
            return new Fault(status, copy, body, cutAfterBytes, closeWithoutAnswer, chunkDelay, chunkSize);
        }

        /** Replaces the body. */
        public Fault body(String json) {
            return new Fault(status, headers, json.getBytes(StandardCharsets.UTF_8), cutAfterBytes,
                    closeWithoutAnswer, chunkDelay, chunkSize);
        }

        boolean replacesAnswer() {
            return status > 0;
        }

        ObjectNode toJson() {
            ObjectNode node = JSON.createObjectNode();
            node.put("status", status);
            node.set("headers", JSON.valueToTree(headers));
            if (body != null) {
                node.put("body", java.util.Base64.getEncoder().encodeToString(body));
            }
            node.put("cutAfterBytes", cutAfterBytes);
            node.put("closeWithoutAnswer", closeWithoutAnswer);
            if (chunkDelay != null) {
                node.put("chunkDelayMillis", chunkDelay.toMillis());
            }
            node.put("chunkSize", chunkSize);
            return node;
        }

        static Fault fromJson(JsonNode node) {
            Map<String, List<String>> headers = new LinkedHashMap<>();
            node.path("headers").fields().forEachRemaining(e -> {
                List<String> values = new ArrayList<>();
                e.getValue().forEach(v -> values.add(v.asText()));
                headers.put(e.getKey(), values);
            });
            return new Fault(node.get("status").asInt(), headers,
                    node.hasNonNull("body") ? java.util.Base64.getDecoder().decode(node.get("body").asText()) : null,
                    node.get("cutAfterBytes").asLong(), node.get("closeWithoutAnswer").asBoolean(),
                    node.hasNonNull("chunkDelayMillis") ? Duration.ofMillis(node.get("chunkDelayMillis").asLong())
                            : null,
                    node.get("chunkSize").asInt());
        }
    }

    private record Served(int status, String contentType, Map<String, String> headers, byte[] body) {
    }

    private record BulkFile(String type, String version, byte[] jsonlGz, byte[] legacyGz, long legacySize) {
    }

    /** The system property holding the URL of the JVM's stand-in (see EmbeddedPostgresServer). */
    static final String URL_PROPERTY = "card-catalog.test.stand-in.url";
    private static final String ADMIN = "/__stand-in/";

    /** In remote mode, the stand-in this instance scripts over HTTP; null for the stand-in itself. */
    private final String remote;
    private final java.net.http.HttpClient http;
    private final Vertx vertx;
    private final HttpServer server;
    private final List<RecordedRequest> requests = new CopyOnWriteArrayList<>();
    private final Map<String, Deque<Fault>> queued = new LinkedHashMap<>();
    private final Map<String, Fault> sticky = new LinkedHashMap<>();
    private final byte[] setsJson;
    private final byte[] sampleJsonlGz;
    private final byte[] sampleLegacyGz;
    private final long sampleLegacySize;
    private volatile BulkShape shape = BulkShape.CURRENT;
    private volatile int setsPageSize = 250;
    private volatile long sizeError;
    private volatile boolean rotateVersions;
    private int rotation;
    private final Map<String, BulkFile> bulkFiles = new LinkedHashMap<>();
    private final Map<String, byte[]> images = new java.util.concurrent.ConcurrentHashMap<>();
    /** The slow bodies being served, each with what sends its rest at once ({@link #reset()} runs them). */
    private final Map<Object, Runnable> holds = new java.util.concurrent.ConcurrentHashMap<>();
    /** How many resets there have been: a slow body begun before the last one is sent whole at its next chunk. */
    private final java.util.concurrent.atomic.AtomicLong resets = new java.util.concurrent.atomic.AtomicLong();

    /** A handle on the stand-in at {@code baseUrl}, scripted through its admin routes. */
    private ScryfallStandIn(String baseUrl) {
        remote = baseUrl;
        http = java.net.http.HttpClient.newHttpClient();
        setsJson = null;
        sampleJsonlGz = null;
        sampleLegacyGz = null;
        sampleLegacySize = 0;
        vertx = null;
        server = null;
    }

    private ScryfallStandIn(int port) {
        remote = null;
        http = null;
        setsJson = resource("scryfall/sets/api-types-2023__Set__Sets.json");
        sampleJsonlGz = resource("scryfall/bulk-data/derived__cards-sample.jsonl.gz");
        sampleLegacyGz = resource("scryfall/bulk-data/derived__cards-sample.legacy-array.json.gz");
        sampleLegacySize = gunzip(sampleLegacyGz).length;
        restoreBulkFiles();
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(this::handle);
        try {
            server.listen(port, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            vertx.close();
            throw new IllegalStateException("could not start the Scryfall stand-in on port " + port, e);
        }
    }

    /**
     * The JVM's stand-in, started on first use. Quarkus loads test classes again for each test profile: an instance
     * loaded later is a handle that scripts the one running stand-in through its admin routes.
     */
    public static ScryfallStandIn shared() {
        synchronized (System.getProperties()) {
            if (shared == null) {
                String url = System.getProperty(URL_PROPERTY);
                if (url != null) {
                    shared = new ScryfallStandIn(url);
                } else {
                    shared = start(0);
                    System.setProperty(URL_PROPERTY, shared.baseUrl());
                }
            }
            return shared;
        }
    }

    /** Starts a stand-in on {@code port}, 0 for a free one. */
    public static ScryfallStandIn start(int port) {
        return new ScryfallStandIn(port);
    }

    /** The base URL, {@code http://127.0.0.1:<port>}, without a trailing slash. */
    public String baseUrl() {
        return remote != null ? remote : "http://127.0.0.1:" + server.actualPort();
    }

    public int port() {
        return java.net.URI.create(baseUrl()).getPort();
    }

    // ---- scripting ------------------------------------------------------------------------------------------

    /** Forgets faults, recorded requests and added files; serves the bundled sample in the current shape. */
    public synchronized void reset() {
        if (remote != null) {
            admin("reset", "", new byte[0]);
            return;
        }
        queued.clear();
        sticky.clear();
        resets.incrementAndGet();
        new ArrayList<>(holds.keySet()).forEach(hold -> {
            Runnable release = holds.remove(hold);
            if (release != null) {
                release.run();
            }
        });
        requests.clear();
        shape = BulkShape.CURRENT;
        setsPageSize = 250;
        sizeError = 0;
        rotateVersions = false;
        restoreBulkFiles();
    }

    /**
     * Publishes the default_cards file under a new version at every {@code /bulk-data} request (same cards), so
     * every refresh downloads a file: a refresh that makes progress each time.
     */
    public synchronized void rotateVersions() {
        if (remote != null) {
            admin("rotate-versions", "", new byte[0]);
            return;
        }
        rotateVersions = true;
    }

    /** Publishes every bulk file's size off by {@code bytes} (to test the download's size check). */
    public void misreportSizesBy(long bytes) {
        if (remote != null) {
            admin("misreport", "bytes=" + bytes, new byte[0]);
            return;
        }
        this.sizeError = bytes;
    }

    /** Answers the next requests whose path starts with {@code pathPrefix} with these faults, in order. */
    public synchronized void enqueue(String pathPrefix, Fault... faults) {
        if (remote != null) {
            ArrayNode list = JSON.createArrayNode();
            for (Fault fault : faults) {
                list.add(fault.toJson());
            }
            admin("enqueue", "path=" + encode(pathPrefix), bytes(list));
            return;
        }
        Deque<Fault> queue = queued.computeIfAbsent(pathPrefix, k -> new ArrayDeque<>());
        queue.addAll(List.of(faults));
    }

    /** Answers every request whose path starts with {@code pathPrefix} with this fault until {@link #reset()}. */
    public synchronized void always(String pathPrefix, Fault fault) {
        if (remote != null) {
            admin("always", "path=" + encode(pathPrefix), bytes(fault.toJson()));
            return;
        }
        sticky.put(pathPrefix, fault);
    }

    /** Serves the bulk-data items in this shape. */
    public void bulkShape(BulkShape shape) {
        if (remote != null) {
            admin("bulk-shape", "shape=" + shape, new byte[0]);
            return;
        }
        this.shape = shape;
    }

    /** Pages {@code /sets} by this many sets. */
    public void setsPageSize(int size) {
        if (remote != null) {
            admin("sets-page-size", "size=" + size, new byte[0]);
            return;
        }
        this.setsPageSize = size;
    }

    /**
     * Serves {@code lines} (one card object per line) as the {@code default_cards} file of {@code version} in both
     * shapes, replacing the sample.
     */
    public synchronized void serveDefaultCards(String version, List<String> lines) {
        if (remote != null) {
            admin("default-cards", "version=" + encode(version),
                    String.join("\n", lines).getBytes(StandardCharsets.UTF_8));
            return;
        }
        byte[] jsonl = gzip((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
        byte[] array = ("[\n" + String.join(",\n", lines) + "\n]\n").getBytes(StandardCharsets.UTF_8);
        bulkFiles.put("default_cards", new BulkFile("default_cards", version, jsonl, gzip(array), array.length));
    }

    /** Serves this gzip JSON Lines file as the {@code default_cards} file of {@code version}. */
    public synchronized void serveDefaultCardsFile(String version, byte[] jsonlGz) {
        if (remote != null) {
            admin("default-cards-file", "version=" + encode(version), jsonlGz);
            return;
        }
        bulkFiles.put("default_cards", new BulkFile("default_cards", version, jsonlGz, null, -1));
    }

    /** Serves this gzip JSON Lines file as the {@code all_cards} file of {@code version}. */
    public synchronized void serveAllCardsFile(String version, byte[] jsonlGz) {
        if (remote != null) {
            admin("all-cards-file", "version=" + encode(version), jsonlGz);
            return;
        }
        bulkFiles.put("all_cards", new BulkFile("all_cards", version, jsonlGz, null, -1));
    }

    /** The card objects of the bundled sample, one JSON text per card, in file order. */
    public static List<String> sampleCardLines() {
        String text = new String(gunzip(resource("scryfall/bulk-data/derived__cards-sample.jsonl.gz")),
                StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                lines.add(line);
            }
        }
        return lines;
    }

    // ---- recording ------------------------------------------------------------------------------------------

    /** Every request received since the last {@link #reset()}, in arrival order. */
    public List<RecordedRequest> requests() {
        if (remote != null) {
            List<RecordedRequest> recorded = new ArrayList<>();
            try {
                for (JsonNode node : JSON.readTree(admin("requests", "", new byte[0]))) {
                    recorded.add(RecordedRequest.fromJson(node));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return recorded;
        }
        return List.copyOf(requests);
    }

    /** The requests whose path starts with {@code pathPrefix}. */
    public List<RecordedRequest> requests(String pathPrefix) {
        return requests().stream().filter(r -> r.path().startsWith(pathPrefix)).toList();
    }

    // ---- serving --------------------------------------------------------------------------------------------

    private void handle(HttpServerRequest request) {
        if (request.path().startsWith(ADMIN)) {
            handleAdmin(request);
            return;
        }
        Map<String, List<String>> headers = new LinkedHashMap<>();
        request.headers().forEach(e -> headers.computeIfAbsent(e.getKey().toLowerCase(Locale.ROOT),
                k -> new ArrayList<>()).add(e.getValue()));
        String path = request.path();
        requests.add(new RecordedRequest(request.method().name(), path, request.query(), headers, Instant.now()));

        Fault fault = nextFault(path);
        HttpServerResponse response = request.response();
        if (fault != null && fault.closeWithoutAnswer()) {
            request.connection().close();
            return;
        }
        if (fault != null && fault.replacesAnswer()) {
            response.setStatusCode(fault.status());
            response.putHeader("Content-Type", "application/json; charset=utf-8");
            response.putHeader("Date", httpDate(Instant.now()));
            fault.headers().forEach((name, values) -> response.putHeader(name, values));
            response.end(Buffer.buffer(fault.body()));
            return;
        }
        if (isImage(path) && !images.containsKey(imageKey(path))) {
            // drawn on a worker thread, several at once: the event loop goes on answering everything else
            request.pause();
            io.vertx.core.Context context = Vertx.currentContext();
            vertx.<Served>executeBlocking(() -> image(path), false).onComplete(drawn -> context.runOnContext(v -> {
                request.resume();
                answer(request, response, fault, drawn.succeeded() ? drawn.result()
                        : error(500, "internal_error", "The stand-in failed: " + drawn.cause()));
            }));
            return;
        }
        Served served;
        try {
            served = serve(request, path);
        } catch (RuntimeException e) {
            served = error(500, "internal_error", "The stand-in failed: " + e);
        }
        answer(request, response, fault, served);
    }

    /** Sends {@code served}, as {@code fault} (when not null) asks: cut after some bytes, or slowly. */
    private void answer(HttpServerRequest request, HttpServerResponse response, Fault fault, Served served) {
        if (response.closed()) {
            return;
        }
        response.setStatusCode(served.status());
        response.putHeader("Content-Type", served.contentType());
        response.putHeader("Date", httpDate(Instant.now()));
        served.headers().forEach(response::putHeader);
        if (fault != null && fault.cutAfterBytes() >= 0) {
            response.putHeader("Content-Length", String.valueOf(served.body().length));
            int upTo = (int) Math.min(fault.cutAfterBytes(), served.body().length);
            response.write(Buffer.buffer(java.util.Arrays.copyOf(served.body(), upTo)))
                    .onComplete(done -> vertx.setTimer(50, t -> request.connection().close()));
            return;
        }
        if (fault != null && fault.chunkDelay() != null) {
            response.putHeader("Content-Length", String.valueOf(served.body().length));
            writeSlowly(response, served.body(), 0, fault.chunkSize(), fault.chunkDelay(), resets.get(),
                    new Object(), Vertx.currentContext());
            return;
        }
        response.end(Buffer.buffer(served.body()));
    }

    /**
     * Serves {@code body} from {@code from} in chunks {@code delay} apart, as long as {@code hold} is held: a reset
     * cancels the next chunk's timer and sends the rest at once, on the response's event loop.
     */
    private void writeSlowly(HttpServerResponse response, byte[] body, int from, int chunk, Duration delay,
            long generation, Object hold, io.vertx.core.Context context) {
        if (response.closed()) {
            holds.remove(hold);
            return;
        }
        // released by a reset since it began: the rest at once
        int to = resets.get() != generation ? body.length : Math.min(body.length, from + chunk);
        Buffer part = Buffer.buffer(java.util.Arrays.copyOfRange(body, from, to));
        if (to >= body.length) {
            holds.remove(hold);
            response.end(part);
            return;
        }
        response.write(part);
        long timer = vertx.setTimer(Math.max(1, delay.toMillis()),
                t -> writeSlowly(response, body, to, chunk, delay, generation, hold, context));
        holds.put(hold, () -> context.runOnContext(v -> {
            if (vertx.cancelTimer(timer) && !response.closed()) {
                response.end(Buffer.buffer(java.util.Arrays.copyOfRange(body, to, body.length)));
            }
        }));
    }

    private synchronized Fault nextFault(String path) {
        for (Map.Entry<String, Deque<Fault>> entry : queued.entrySet()) {
            if (path.startsWith(entry.getKey()) && !entry.getValue().isEmpty()) {
                return entry.getValue().poll();
            }
        }
        for (Map.Entry<String, Fault> entry : sticky.entrySet()) {
            if (path.startsWith(entry.getKey())) {
                return entry.getValue();
            }
        }
        return null;
    }

    private Served serve(HttpServerRequest request, String path) {
        if (isImage(path)) {
            return image(path);
        }
        if (path.startsWith("/file/")) {
            return bulkFile(path);
        }
        Optional<Served> refused = refuseWithoutManners(request);
        if (refused.isPresent()) {
            return refused.get();
        }
        if (path.equals("/bulk-data")) {
            return json(bulkDataList());
        }
        if (path.equals("/sets")) {
            return json(setsPage(request.getParam("page")));
        }
        return error(404, "not_found", "The stand-in has nothing at " + path + ".");
    }

    /** Scryfall answers 400 when the User-Agent or Accept header is missing, or the User-Agent is a default. */
    private Optional<Served> refuseWithoutManners(HttpServerRequest request) {
        String userAgent = request.getHeader("User-Agent");
        String accept = request.getHeader("Accept");
        if (userAgent == null || userAgent.isBlank() || accept == null || accept.isBlank()) {
            return Optional.of(new Served(400, "application/json; charset=utf-8", Map.of(),
                    resource("scryfall/errors/issue-quoted__400_missing_user_agent_or_accept.json")));
        }
        String ua = userAgent.toLowerCase(Locale.ROOT);
        if (ua.startsWith("java") || ua.startsWith("vertx") || ua.startsWith("resteasy")
                || ua.startsWith("apache-httpclient") || ua.startsWith("okhttp") || ua.startsWith("curl")) {
            return Optional.of(new Served(400, "application/json; charset=utf-8", Map.of(),
                    resource("scryfall/errors/issue-quoted__400_generic_user_agent.json")));
        }
        return Optional.empty();
    }

    /** A {@code small} image path of either host: {@code /small/front/...} or {@code /file/scryfall-cards/small/...}. */
    public static boolean isImage(String path) {
        return (path.startsWith("/small/") || path.startsWith("/file/scryfall-cards/small/")) && path.endsWith(".jpg");
    }

    /**
     * A generated card image for a Scryfall {@code small} image path of a card's front face
     * ({@code /small/front/a/b/<card id>.jpg}) or its back face ({@code /small/back/a/b/<card id>.jpg}, as Scryfall
     * serves the second face of a double-faced card): the card art of {@link #imageSeed(String, boolean)}, a
     * 146×204 JPEG, a different picture for each face. Generated images are kept, in memory and on disk for the
     * build's other JVMs ({@link SmallJpegFiles}), so each is drawn once.
     */
    private Served image(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        int dot = name.indexOf('.');
        String id = dot < 0 ? name : name.substring(0, dot);
        boolean back = path.contains("/small/back/");
        byte[] jpeg;
        try {
            jpeg = images.computeIfAbsent(imageKey(path), key -> SmallJpegFiles.smallJpeg(imageSeed(id, back)));
        } catch (IllegalArgumentException e) {
            return error(404, "not_found", "No such image.");
        }
        return new Served(200, "image/jpeg", Map.of(), jpeg);
    }

    /** The key of an image path's picture among those drawn: its face and card id. */
    private static String imageKey(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        int dot = name.indexOf('.');
        return (path.contains("/small/back/") ? "back/" : "front/") + (dot < 0 ? name : name.substring(0, dot));
    }

    /** The {@link CardArtGenerator} seed of the image the stand-in serves for a card id's front face. */
    public static long imageSeed(String cardId) {
        return imageSeed(cardId, false);
    }

    /**
     * The {@link CardArtGenerator} seed of the image the stand-in serves for a card id's front face, or for its back
     * face ({@code /small/back/...}).
     */
    public static long imageSeed(String cardId, boolean back) {
        java.util.UUID id = java.util.UUID.fromString(cardId);
        long front = id.getMostSignificantBits() ^ id.getLeastSignificantBits();
        // any fixed odd constant gives the back face another picture; this one is the golden ratio's (a Weyl step)
        return back ? front + 0x9E3779B97F4A7C15L : front;
    }

    /**
     * The {@link CardArtGenerator} seed of the image the stand-in serves at a Scryfall {@code small} image URL (either
     * host, with or without a {@code ?<epoch>} query).
     */
    public static long imageSeedOf(String smallImageUrl) {
        String path = java.net.URI.create(smallImageUrl).getPath();
        String name = path.substring(path.lastIndexOf('/') + 1);
        int dot = name.indexOf('.');
        return imageSeed(dot < 0 ? name : name.substring(0, dot), path.contains("/small/back/"));
    }

    private synchronized ObjectNode bulkDataList() {
        if (rotateVersions) {
            BulkFile current = bulkFiles.get("default_cards");
            rotation++;
            bulkFiles.put("default_cards", new BulkFile(current.type(),
                    String.format("default-cards-20261008%06d", rotation), current.jsonlGz(), current.legacyGz(),
                    current.legacySize()));
        }
        ObjectNode list = JSON.createObjectNode();
        list.put("object", "list");
        list.put("has_more", false);
        ArrayNode data = list.putArray("data");
        for (BulkFile file : bulkFiles.values()) {
            ObjectNode item = data.addObject();
            item.put("object", "bulk_data");
            item.put("id", java.util.UUID.nameUUIDFromBytes(file.type().getBytes(StandardCharsets.UTF_8))
                    .toString());
            item.put("type", file.type());
            item.put("updated_at", "2026-10-08T21:05:45.123+00:00");
            item.put("uri", baseUrl() + "/bulk-data/" + item.get("id").asText());
            item.put("name", file.type().equals("all_cards") ? "All Cards" : "Default Cards");
            item.put("description", "Served by the Scryfall stand-in from the bundled sample.");
            String folder = file.type().replace('_', '-');
            if (shape == BulkShape.CURRENT || file.legacyGz() == null) {
                item.put("jsonl_download_uri",
                        baseUrl() + "/file/" + folder + "/" + file.version() + ".jsonl.gz");
                item.put("compressed_size", file.jsonlGz().length + sizeError);
            } else {
                item.put("size", file.legacySize() + sizeError);
                item.put("download_uri", baseUrl() + "/file/" + folder + "/" + file.version() + ".json");
                item.put("content_type", "application/json");
                item.put("content_encoding", "gzip");
            }
        }
        return list;
    }

    private synchronized Served bulkFile(String path) {
        for (BulkFile file : bulkFiles.values()) {
            String folder = file.type().replace('_', '-');
            if (path.equals("/file/" + folder + "/" + file.version() + ".jsonl.gz")) {
                return new Served(200, "application/gzip", Map.of(), file.jsonlGz());
            }
            if (file.legacyGz() != null && path.equals("/file/" + folder + "/" + file.version() + ".json")) {
                return new Served(200, "application/json", Map.of("Content-Encoding", "gzip"), file.legacyGz());
            }
        }
        return error(404, "not_found", "No such bulk file.");
    }

    private ObjectNode setsPage(String pageParam) {
        JsonNode all;
        try {
            all = JSON.readTree(setsJson).get("data");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int page = pageParam == null ? 1 : Integer.parseInt(pageParam);
        int size = setsPageSize;
        int from = (page - 1) * size;
        int to = Math.min(all.size(), from + size);
        ObjectNode list = JSON.createObjectNode();
        list.put("object", "list");
        boolean more = to < all.size();
        list.put("has_more", more);
        if (more) {
            list.put("next_page", baseUrl() + "/sets?page=" + (page + 1));
        }
        ArrayNode data = list.putArray("data");
        for (int i = from; i < to; i++) {
            data.add(all.get(i));
        }
        return list;
    }

    private synchronized void restoreBulkFiles() {
        bulkFiles.clear();
        bulkFiles.put("default_cards", new BulkFile("default_cards", SAMPLE_VERSION, sampleJsonlGz,
                sampleLegacyGz, sampleLegacySize));
        bulkFiles.put("all_cards", new BulkFile("all_cards", SAMPLE_ALL_VERSION, sampleJsonlGz,
                sampleLegacyGz, sampleLegacySize));
    }

    private static Served json(JsonNode node) {
        try {
            return new Served(200, "application/json; charset=utf-8", Map.of(), JSON.writeValueAsBytes(node));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Served error(int status, String code, String details) {
        ObjectNode error = JSON.createObjectNode();
        error.put("object", "error");
        error.put("code", code);
        error.put("status", status);
        error.put("details", details);
        Served served = json(error);
        return new Served(status, served.contentType(), Map.of(), served.body());
    }

    private static String httpDate(Instant instant) {
        return java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME
                .format(instant.atZone(java.time.ZoneOffset.UTC));
    }

    static byte[] resource(String name) {
        try (InputStream in = ScryfallStandIn.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** gzip of {@code bytes}. */
    public static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static byte[] gunzip(byte[] bytes) {
        try (GZIPInputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(bytes))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (vertx != null) {
            vertx.close();
        }
    }

    // ---- the admin routes: scripting the stand-in from another class loader ------------------------------------

    private byte[] admin(String action, String query, byte[] body) {
        java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                remote + ADMIN + action + (query.isEmpty() ? "" : "?" + query)))
                .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(body)).build();
        try {
            java.net.http.HttpResponse<byte[]> response = http.send(request,
                    java.net.http.HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("the stand-in refused " + action + ": "
                        + new String(response.body(), StandardCharsets.UTF_8));
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void handleAdmin(HttpServerRequest request) {
        request.body().onComplete(read -> {
            HttpServerResponse response = request.response();
            try {
                byte[] body = read.succeeded() ? read.result().getBytes() : new byte[0];
                String action = request.path().substring(ADMIN.length());
                byte[] answer = new byte[0];
                switch (action) {
                    case "reset" -> reset();
                    case "misreport" -> misreportSizesBy(Long.parseLong(request.getParam("bytes")));
                    case "rotate-versions" -> rotateVersions();
                    case "bulk-shape" -> bulkShape(BulkShape.valueOf(request.getParam("shape")));
                    case "sets-page-size" -> setsPageSize(Integer.parseInt(request.getParam("size")));
                    case "enqueue" -> {
                        List<Fault> faults = new ArrayList<>();
                        for (JsonNode node : JSON.readTree(body)) {
                            faults.add(Fault.fromJson(node));
                        }
                        enqueue(request.getParam("path"), faults.toArray(Fault[]::new));
                    }
                    case "always" -> always(request.getParam("path"), Fault.fromJson(JSON.readTree(body)));
                    case "default-cards" -> serveDefaultCards(request.getParam("version"),
                            List.of(new String(body, StandardCharsets.UTF_8).split("\n")));
                    case "default-cards-file" -> serveDefaultCardsFile(request.getParam("version"), body);
                    case "all-cards-file" -> serveAllCardsFile(request.getParam("version"), body);
                    case "requests" -> {
                        ArrayNode list = JSON.createArrayNode();
                        requests().forEach(r -> list.add(r.toJson()));
                        answer = bytes(list);
                    }
                    default -> throw new IllegalArgumentException("no admin action " + action);
                }
                response.setStatusCode(200).end(Buffer.buffer(answer));
            } catch (Exception e) {
                response.setStatusCode(500).end(String.valueOf(e));
            }
        });
    }

    private static byte[] bytes(JsonNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String encode(String text) {
        return java.net.URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
