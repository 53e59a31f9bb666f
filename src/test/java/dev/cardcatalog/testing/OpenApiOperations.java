package dev.cardcatalog.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The operations of an OpenAPI document (JSON), found by method and path template, and by a concrete request path
 * ({@code /api/jobs/0f6c…} is {@code GET /api/jobs/{id}}). An operation's responses are read as a client reads them:
 * a response that is a {@code $ref} to {@code components/responses} is that response.
 */
public final class OpenApiOperations {

    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "patch", "head", "options");

    /** One operation: {@code "METHOD /path/{template}"}, its node, and the statuses it declares. */
    public record Op(String method, String path, JsonNode node) {

        public String key() {
            return method + " " + path;
        }

        public String operationId() {
            return node.path("operationId").asText(null);
        }

        /** The status codes of its responses, as written ({@code "200"}, {@code "default"}). */
        public Set<String> statuses() {
            Set<String> statuses = new TreeSet<>();
            node.path("responses").fieldNames().forEachRemaining(statuses::add);
            return statuses;
        }

        /** The response for {@code status}: its own, else {@code default}, else empty. */
        public Optional<JsonNode> response(int status) {
            JsonNode responses = node.path("responses");
            JsonNode own = responses.get(String.valueOf(status));
            if (own != null) {
                return Optional.of(own);
            }
            return Optional.ofNullable(responses.get("default"));
        }
    }

    private final JsonNode document;
    private final List<Op> operations = new ArrayList<>();
    private final List<Map.Entry<Pattern, Op>> byPattern = new ArrayList<>();

    public OpenApiOperations(JsonNode document) {
        this.document = document;
        for (Iterator<Map.Entry<String, JsonNode>> paths = document.path("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (Iterator<Map.Entry<String, JsonNode>> ops = path.getValue().fields(); ops.hasNext(); ) {
                Map.Entry<String, JsonNode> op = ops.next();
                if (METHODS.contains(op.getKey())) {
                    Op operation = new Op(op.getKey().toUpperCase(Locale.ROOT), path.getKey(),
                            withResponsesResolved(op.getValue(), document));
                    operations.add(operation);
                    byPattern.add(Map.entry(Pattern.compile(
                            Pattern.quote(path.getKey()).replaceAll("\\{[^}/]+}", "\\\\E[^/]+\\\\Q")), operation));
                }
            }
        }
        // a path with more fixed text first: /api/art-index/files/{name} before a template that could also match
        byPattern.sort(Comparator.comparingInt((Map.Entry<Pattern, Op> e) ->
                e.getValue().path().replaceAll("\\{[^}/]+}", "").length()).reversed());
    }

    /** A copy of {@code operation} whose responses that are {@code $ref}s are the responses they name. */
    private static JsonNode withResponsesResolved(JsonNode operation, JsonNode document) {
        ObjectNode copy = operation.deepCopy();
        JsonNode responses = copy.path("responses");
        if (responses instanceof ObjectNode byStatus) {
            List<String> statuses = new ArrayList<>();
            byStatus.fieldNames().forEachRemaining(statuses::add);
            for (String status : statuses) {
                JsonNode ref = byStatus.get(status).get("$ref");
                if (ref != null && ref.asText().startsWith("#/")) {
                    JsonNode named = document.at(ref.asText().substring(1));
                    if (named.isMissingNode()) {
                        throw new IllegalStateException(operation.path("operationId").asText() + " " + status
                                + ": " + ref.asText() + " is not in the document");
                    }
                    byStatus.set(status, named.deepCopy());
                }
            }
        }
        return copy;
    }

    /** The document served at {@code url} (its JSON form). */
    public static OpenApiOperations fetch(String url) {
        try {
            HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(url + (url.contains("?") ? "&" : "?") + "format=json"))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 200) {
                throw new IllegalStateException(url + " answered " + answer.statusCode());
            }
            return new OpenApiOperations(new ObjectMapper().readTree(answer.body()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public JsonNode document() {
        return document;
    }

    public List<Op> operations() {
        return List.copyOf(operations);
    }

    /** The operation with this method and path template. */
    public Optional<Op> operation(String method, String template) {
        return operations.stream().filter(op -> op.method().equals(method) && op.path().equals(template)).findFirst();
    }

    /** The operation a request with this method and concrete path (no query) is for; empty when none. */
    public Optional<Op> forRequest(String method, String path) {
        return byPattern.stream().filter(e -> e.getValue().method().equals(method))
                .filter(e -> e.getKey().matcher(path).matches()).map(Map.Entry::getValue).findFirst();
    }
}
