package dev.cardcatalog.testing;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.http.TestHTTPResourceManager;
import io.quarkus.test.junit.callback.QuarkusTestAfterAllCallback;
import io.quarkus.test.junit.callback.QuarkusTestBeforeClassCallback;
import io.quarkus.test.junit.callback.QuarkusTestContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The OpenAPI document declares every answer the suite sees (SERVICE.md §9): after each {@code @QuarkusTest} class,
 * each answer {@link HttpAnswers} recorded for a request that an operation of the service's own {@code /q/openapi}
 * covers (by method and path template) must have its status among that operation's responses, and a problem answer
 * ({@code application/problem+json}) a problem response there. Otherwise the class fails, naming the answers the
 * document is missing. Requests to paths no operation covers (the admin page, static files, a path made up to get a
 * 404) are not checked. Each JSON answer of a resource ({@link JsonAnswers}) must also have its {@code null}s where
 * its response's schema allows {@code null}: a client generated from the document may refuse any other.
 * Registered for every Quarkus test through META-INF/services.
 *
 * <p>Each class's checked answers are also written to {@code target/http-answers/<pid>.tsv} (operation, status,
 * class), which shows the declared answers no test sees.
 */
public class HttpAnswersCheck implements QuarkusTestBeforeClassCallback, QuarkusTestAfterAllCallback {

    private static volatile String testClass = "?";
    private static volatile String documentUrl;
    private static volatile OpenApiOperations document;

    @Override
    public void beforeClass(Class<?> type) {
        testClass = type.getName();
        HttpAnswers.drain(); // whatever the last class left in flight is not this class's
        JsonAnswers.drain();
    }

    @Override
    public void afterAll(QuarkusTestContext context) {
        List<HttpAnswers.Answer> answers = HttpAnswers.drain().stream().filter(a -> a.path().startsWith("/api/"))
                .toList();
        List<JsonAnswers.Answer> bodies = JsonAnswers.drain().stream().filter(a -> a.path().startsWith("/api/"))
                .toList();
        if (answers.isEmpty() && bodies.isEmpty()) {
            return;
        }
        OpenApiOperations operations = document();
        StringBuilder seen = new StringBuilder();
        for (HttpAnswers.Answer answer : answers) {
            operations.forRequest(answer.method(), answer.path()).ifPresent(op -> seen.append(op.operationId())
                    .append('\t').append(answer.status()).append('\t').append(testClass).append('\n'));
        }
        write(seen);
        Set<String> missing = undeclared(operations, answers);
        missing.addAll(undeclaredNulls(operations, bodies));
        if (!missing.isEmpty()) {
            throw new AssertionError(testClass + " saw answers the OpenAPI document (/q/openapi) does not declare; "
                    + "declare them on the operation (its @APIResponse, docs/api.md#the-openapi-document):\n  " + String.join("\n  ", missing));
        }
    }

    /**
     * The answers among {@code answers} that {@code operations} does not declare, said in words: a status the
     * operation has no response for, or a problem answer where its response has no problem+json. An answer to a
     * request no operation covers is not one of them.
     */
    static Set<String> undeclared(OpenApiOperations operations, List<HttpAnswers.Answer> answers) {
        Set<String> missing = new LinkedHashSet<>();
        for (HttpAnswers.Answer answer : answers) {
            Optional<OpenApiOperations.Op> op = operations.forRequest(answer.method(), answer.path());
            if (op.isEmpty()) {
                continue;
            }
            var declared = op.get().response(answer.status());
            if (declared.isEmpty()) {
                missing.add(op.get().key() + " (" + op.get().operationId() + ") answered " + answer.status()
                        + " (" + answer.method() + " " + answer.path() + "), which it does not declare");
            } else if ("application/problem+json".equals(answer.mediaType())
                    && declared.get().path("content").path("application/problem+json").isMissingNode()) {
                missing.add(op.get().key() + " (" + op.get().operationId() + ") answered " + answer.status()
                        + " as problem+json, which its " + answer.status() + " response does not declare");
            }
        }
        return missing;
    }

    /**
     * Where the JSON answers {@code bodies} hold a {@code null} that their operation's response schema does not
     * allow, said in words, one line per operation, status and place in the body ({@code $.runs[].finished_at}).
     * A schema allows {@code null} by its {@code type} ({@code "null"} or a list holding it), by an {@code anyOf} or
     * {@code oneOf} alternative that does, or by saying nothing of the value. Fields the schema does not describe
     * are not checked.
     */
    static Set<String> undeclaredNulls(OpenApiOperations operations, List<JsonAnswers.Answer> bodies) {
        Set<String> missing = new LinkedHashSet<>();
        for (JsonAnswers.Answer answer : bodies) {
            Optional<OpenApiOperations.Op> op = operations.forRequest(answer.method(), answer.path());
            if (op.isEmpty()) {
                continue;
            }
            JsonNode schema = op.get().response(answer.status())
                    .map(r -> r.path("content").path("application/json").path("schema")).orElse(null);
            if (schema == null || schema.isMissingNode()) {
                continue;
            }
            String where = op.get().key() + " (" + op.get().operationId() + ") answered " + answer.status()
                    + " with null at ";
            nulls(answer.body(), schema, "$", operations.document(), where, missing);
        }
        return missing;
    }

    private static void nulls(JsonNode value, JsonNode schema, String at, JsonNode document, String where,
            Set<String> missing) {
        JsonNode resolved = resolve(schema, document);
        if (value.isNull()) {
            if (!allowsNull(resolved, document)) {
                missing.add(where + at + ", which its schema does not allow (" + describe(schema) + ")");
            }
        } else if (value.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = value.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                JsonNode property = property(resolved, field.getKey(), document);
                if (property != null) {
                    nulls(field.getValue(), property, at + "." + field.getKey(), document, where, missing);
                }
            }
        } else if (value.isArray()) {
            JsonNode items = items(resolved, document);
            if (items != null) {
                for (JsonNode item : value) {
                    nulls(item, items, at + "[]", document, where, missing);
                }
            }
        }
    }

    /** {@code schema}, or the component its {@code $ref} names (followed to the end). */
    private static JsonNode resolve(JsonNode schema, JsonNode document) {
        JsonNode resolved = schema;
        for (int hops = 0; resolved.has("$ref") && hops < 16; hops++) {
            String ref = resolved.get("$ref").asText();
            resolved = document.at(ref.startsWith("#") ? ref.substring(1) : ref);
        }
        return resolved;
    }

    private static boolean allowsNull(JsonNode schema, JsonNode document) {
        JsonNode type = schema.get("type");
        if (type != null && (type.isArray() ? contains(type, "null") : "null".equals(type.asText()))) {
            return true;
        }
        if (schema.path("nullable").asBoolean(false)) {
            return true;
        }
        for (String alternatives : List.of("anyOf", "oneOf")) {
            for (JsonNode alternative : schema.path(alternatives)) {
                if (allowsNull(resolve(alternative, document), document)) {
                    return true;
                }
            }
        }
        // a schema that says nothing of the value allows anything
        return type == null && !schema.has("$ref") && !schema.has("properties") && !schema.has("items")
                && !schema.has("anyOf") && !schema.has("oneOf") && !schema.has("allOf") && !schema.has("enum")
                && !schema.has("format");
    }

    private static boolean contains(JsonNode array, String text) {
        for (JsonNode element : array) {
            if (text.equals(element.asText())) {
                return true;
            }
        }
        return false;
    }

    /** The schema of property {@code name} of an object schema, through its {@code allOf}/{@code anyOf}/{@code oneOf}. */
    private static JsonNode property(JsonNode schema, String name, JsonNode document) {
        JsonNode own = schema.path("properties").get(name);
        if (own != null) {
            return own;
        }
        for (String combined : List.of("allOf", "anyOf", "oneOf")) {
            for (JsonNode part : schema.path(combined)) {
                JsonNode found = property(resolve(part, document), name, document);
                if (found != null) {
                    return found;
                }
            }
        }
        JsonNode additional = schema.get("additionalProperties");
        return additional != null && additional.isObject() ? additional : null;
    }

    /** The schema of an array schema's items, through its {@code anyOf}/{@code oneOf}. */
    private static JsonNode items(JsonNode schema, JsonNode document) {
        if (schema.has("items")) {
            return schema.get("items");
        }
        for (String combined : List.of("allOf", "anyOf", "oneOf")) {
            for (JsonNode part : schema.path(combined)) {
                JsonNode found = items(resolve(part, document), document);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    private static String describe(JsonNode schema) {
        return schema.has("$ref") ? schema.get("$ref").asText() : "type " + schema.path("type");
    }

    /** The service's document, read once per service started (a test profile starts another on another port). */
    private static OpenApiOperations document() {
        String url = TestHTTPResourceManager.getManagementUri();
        url = (url.endsWith("/") ? url : url + "/") + (url.endsWith("/q") || url.endsWith("/q/") ? "" : "q/")
                + "openapi";
        if (!url.equals(documentUrl) || document == null) {
            document = OpenApiOperations.fetch(url);
            documentUrl = url;
        }
        return document;
    }

    private static void write(StringBuilder seen) {
        if (seen.isEmpty()) {
            return;
        }
        try {
            Path file = Path.of("target", "http-answers", ProcessHandle.current().pid() + ".tsv");
            Files.createDirectories(file.getParent());
            Files.writeString(file, seen, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
