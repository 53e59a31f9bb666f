package dev.cardcatalog.testing;

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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The OpenAPI document declares every answer the suite sees (SERVICE.md §9): after each {@code @QuarkusTest} class,
 * each answer {@link HttpAnswers} recorded for a request that an operation of the service's own {@code /q/openapi}
 * covers (by method and path template) must have its status among that operation's responses, and a problem answer
 * ({@code application/problem+json}) a problem response there. Otherwise the class fails, naming the answers the
 * document is missing. Requests to paths no operation covers (the admin page, static files, a path made up to get a
 * 404) are not checked. Registered for every Quarkus test through META-INF/services.
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
    }

    @Override
    public void afterAll(QuarkusTestContext context) {
        List<HttpAnswers.Answer> answers = HttpAnswers.drain().stream().filter(a -> a.path().startsWith("/api/"))
                .toList();
        if (answers.isEmpty()) {
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
        if (!missing.isEmpty()) {
            throw new AssertionError(testClass + " saw answers the OpenAPI document (/q/openapi) does not declare; "
                    + "declare them on the operation (its @APIResponse or x-problems, docs/api.md#the-openapi-"
                    + "document):\n  " + String.join("\n  ", missing));
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
