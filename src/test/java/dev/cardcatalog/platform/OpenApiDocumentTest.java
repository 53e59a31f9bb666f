package dev.cardcatalog.platform;

import static dev.cardcatalog.testing.TestUsers.anonymous;
import static dev.cardcatalog.testing.TestUsers.asOperator;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.JaxRsRoutes;
import dev.cardcatalog.testing.OpenApiOperations;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The OpenAPI document at {@code /q/openapi} as a client team reads it (SERVICE.md §9, issue 25): valid to
 * swagger-parser; every operation named, tagged, summarised and described (its annotations), and in docs/api.md;
 * security as the service answers it and as {@link AccessRulesTest} checks it; every problem answer with its types,
 * examples and {@code Retry-After}; every shared answer and example of META-INF/openapi.yaml used; every route of
 * the code in it but the pages for people; docs/api.md's table of answers equal to it and its prose naming no answer
 * it lacks; and the copy the generated client is made from equal to it. The document is made from the code and
 * META-INF/openapi.yaml alone: docs/api.md is only held to it here. That the document declares every answer the
 * suite sees is checked after every test class ({@code testing.HttpAnswersCheck}).
 */
@QuarkusTest
@WithTestResource(CardCatalogTestResource.class)
class OpenApiDocumentTest {

    /** The copy of the document the generated client is made from (pom.xml, GeneratedClientTest). */
    static final Path CLIENT_COPY = Path.of("src/test/resources/openapi/card-catalog.yaml");
    static final Path API_MD = Path.of("docs/api.md");
    static final Path CATALOGUE = Path.of("src/main/resources/META-INF/openapi.yaml");
    /** Where a served document that differs from {@link #CLIENT_COPY} is written, to be copied over it. */
    static final Path SERVED_COPY = Path.of("target/openapi/served.yaml");
    private static final String PROBLEM = "application/problem+json";
    /** What the 400 of every POST says of a form sent without the admin page's CSRF token. */
    private static final String FORM_REFUSAL = "without the admin page's CSRF token is refused by the CSRF filter "
            + "with a 400 without a body";
    private static final String TABLE_HEADING = "## Answers by operation";
    /** A heading of docs/api.md that names operations: {@code ### `POST /api/refreshes`}, a query ignored. */
    private static final Pattern GUIDE_HEADING = Pattern.compile("^(#{1,3}) (.*)$");
    private static final Pattern GUIDE_OPERATION = Pattern.compile(
            "`(GET|PUT|POST|DELETE|PATCH|HEAD|OPTIONS) (/[^`?\\s]*)(?:\\?[^`]*)?`");
    /** The resources the document leaves out: pages for people, not programs (docs/api.md). */
    private static final Set<String> PAGES = Set.of("dev.cardcatalog.admin.AdminResource",
            "dev.cardcatalog.scan.ScanPageResource");

    @TestHTTPResource(value = "openapi", management = true)
    URL openApi;

    private static OpenApiOperations document;
    private static String yaml;

    @BeforeEach
    void readTheDocument() {
        if (document == null) {
            yaml = given().get(openApi).then().statusCode(200).extract().asString();
            document = OpenApiOperations.fetch(openApi.toString());
        }
    }

    @Test
    void swaggerParserReadsTheDocumentWithoutAMessage() {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult result = new OpenAPIV3Parser().readContents(yaml, null, options);
        assertThat(result.getMessages()).as("swagger-parser's messages").isEmpty();
        assertThat(result.getOpenAPI().getOpenapi()).isEqualTo("3.1.0");
        assertThat(result.getOpenAPI().getPaths()).hasSameSizeAs(document.document().path("paths"));
    }

    @Test
    void theDocumentSaysWhoServesItAndWhere() {
        JsonNode doc = document.document();
        assertThat(doc.path("info").path("title").asText()).isEqualTo("card-catalog");
        assertThat(doc.path("info").path("license").path("name").asText()).isNotBlank();
        assertThat(doc.path("info").path("license").path("url").asText()).startsWith("https://");
        assertThat(doc.path("info").path("contact").path("url").asText()).endsWith("/issues");
        assertThat(doc.path("servers").findValuesAsText("url")).contains("http://card-catalog.card-catalog.svc");
        assertThat(doc.has("security")).as("no security for the whole document: each operation says its own")
                .isFalse();
    }

    @Test
    void everyOperationIsNamedTaggedDescribedAndInTheGuide() throws IOException {
        Map<String, String> sections = guideSections(Files.readString(API_MD));
        Set<String> tags = new HashSet<>(document.document().path("tags").findValuesAsText("name"));
        Set<String> ids = new HashSet<>();
        Set<String> usedTags = new HashSet<>();
        SoftAssertions softly = new SoftAssertions();
        for (OpenApiOperations.Op op : document.operations()) {
            String id = op.operationId();
            softly.assertThat(id).as("%s: operationId", op.key()).isNotNull().matches("[a-z][A-Za-z]+");
            softly.assertThat(ids.add(id)).as("%s: operationId %s is unique", op.key(), id).isTrue();
            List<String> opTags = new ArrayList<>();
            op.node().path("tags").forEach(t -> opTags.add(t.asText()));
            softly.assertThat(opTags).as("%s: one tag, a feature's", op.key()).hasSize(1).allMatch(tags::contains);
            usedTags.addAll(opTags);
            softly.assertThat(op.node().path("summary").asText()).as("%s: summary, a phrase", op.key())
                    .isNotBlank().hasSizeLessThan(80).doesNotEndWith(".");
            String description = op.node().path("description").asText();
            softly.assertThat(description.replaceFirst("\\s*\\*\\*Access\\*\\*: .*$", "")).as("%s: description "
                    + "before its access", op.key()).isNotBlank();
        }
        softly.assertThat(usedTags).as("every tag names operations").containsExactlyInAnyOrderElementsOf(tags);
        List<String> operations = document.operations().stream().map(OpenApiOperations.Op::key).toList();
        softly.assertThat(operations).as("docs/api.md's sections are the document's operations")
                .containsExactlyInAnyOrderElementsOf(sections.keySet());
        softly.assertAll();
    }

    @Test
    void securityIsAsServedAndAsTheAccessRulesSay() {
        JsonNode schemes = document.document().path("components").path("securitySchemes");
        assertThat(names(schemes)).containsExactlyInAnyOrder("basic", "bearer");
        assertThat(schemes.path("basic").path("type").asText()).isEqualTo("http");
        assertThat(schemes.path("basic").path("scheme").asText()).isEqualTo("basic");
        assertThat(schemes.path("bearer").path("type").asText()).isEqualTo("http");
        assertThat(schemes.path("bearer").path("scheme").asText()).isEqualTo("bearer");
        assertThat(schemes.path("bearer").path("bearerFormat").asText()).isEqualTo("JWT");
        SoftAssertions softly = new SoftAssertions();
        for (OpenApiOperations.Op op : document.operations()) {
            AccessRulesTest.Rule rule = AccessRulesTest.rule(new AccessRulesTest.Route(op.method(), op.path(),
                    java.util.Optional.empty())).orElseThrow(() -> new AssertionError(op.key() + " has no rule"));
            JsonNode security = op.node().path("security");
            softly.assertThat(security.isArray()).as("%s: security is said, even when empty", op.key()).isTrue();
            String description = op.node().path("description").asText();
            List<String> roles = switch (rule) {
                case PUBLIC -> List.of();
                case VIEWER -> List.of("viewer", "operator");
                case OPERATOR -> List.of("operator");
                case PROCESS -> throw new AssertionError(op.key() + " is the process's own, not in the document");
            };
            if (roles.isEmpty()) {
                softly.assertThat(security.size()).as("%s: public, security: []", op.key()).isZero();
                softly.assertThat(description).as(op.key()).endsWith("**Access**: public, no credentials.");
                softly.assertThat(op.statuses()).as(op.key()).doesNotContain("401", "403");
                continue;
            }
            Map<String, Set<String>> required = new TreeMap<>();
            security.forEach(requirement -> requirement.fields().forEachRemaining(scheme -> {
                Set<String> scopes = new TreeSet<>();
                scheme.getValue().forEach(r -> scopes.add(r.asText()));
                required.put(scheme.getKey(), scopes);
            }));
            softly.assertThat(security.size()).as("%s: Basic or a bearer token, each enough", op.key()).isEqualTo(2);
            softly.assertThat(required).as(op.key()).isEqualTo(Map.of("basic", new TreeSet<>(roles),
                    "bearer", new TreeSet<>(roles)));
            roles.forEach(role -> softly.assertThat(description).as(op.key()).contains("`" + role + "`"));
            softly.assertThat(op.statuses()).as(op.key()).contains("401", "403");
            softly.assertThat(op.node().path("responses").path("401").path("headers").has("WWW-Authenticate"))
                    .as("%s: the 401's challenge", op.key()).isTrue();
        }
        softly.assertAll();
    }

    @Test
    void everyProblemAnswerNamesItsTypesWithExamplesAndRetryAfterWhereSent() {
        JsonNode examples = document.document().path("components").path("examples");
        SoftAssertions softly = new SoftAssertions();
        for (OpenApiOperations.Op op : document.operations()) {
            softly.assertThat(op.statuses()).as("%s: a 4xx answer", op.key()).anyMatch(s -> s.startsWith("4"));
            for (String status : op.statuses()) {
                JsonNode response = op.node().path("responses").path(status);
                String what = op.key() + " " + status;
                softly.assertThat(response.path("description").asText()).as("%s: description", what).isNotBlank();
                if (!status.startsWith("4") && !status.startsWith("5")) {
                    continue;
                }
                if (status.equals("400") && op.method().equals("POST")) {
                    // the CSRF filter's refusal of a form, on every POST, has no body
                    softly.assertThat(response.path("description").asText().replaceAll("\\s+", " ")).as(what)
                            .contains(FORM_REFUSAL);
                    if (!response.has("content")) {
                        continue;
                    }
                }
                JsonNode problem = response.path("content").path(PROBLEM);
                softly.assertThat(names(response.path("content"))).as("%s: problem+json only", what)
                        .containsExactly(PROBLEM);
                Set<String> types = types(problem.path("schema"));
                softly.assertThat(types).as("%s: its problem types", what).isNotEmpty()
                        .allMatch(t -> t.startsWith(Problem.TYPE_BASE));
                softly.assertThat(problem.path("schema").path("allOf").path(0).path("$ref").asText())
                        .as("%s: a Problem", what).isEqualTo("#/components/schemas/Problem");
                Set<String> exampleTypes = new TreeSet<>();
                boolean retryAfter = false;
                for (JsonNode ref : iterable(problem.path("examples"))) {
                    String name = ref.path("$ref").asText().replace("#/components/examples/", "");
                    JsonNode value = examples.path(name).path("value");
                    softly.assertThat(value.isObject()).as("%s: example %s is in the catalogue", what, name).isTrue();
                    softly.assertThat(value.path("status").asText()).as("%s: example %s's status", what, name)
                            .isEqualTo(status);
                    exampleTypes.add(value.path("type").asText());
                    retryAfter |= value.has("retry_after");
                }
                softly.assertThat(exampleTypes).as("%s: an example of each type", what).isEqualTo(types);
                softly.assertThat(response.path("headers").has("Retry-After"))
                        .as("%s: Retry-After exactly when its problems carry retry_after", what).isEqualTo(retryAfter);
            }
        }
        softly.assertAll();
    }

    @Test
    void everySharedAnswerAndExampleIsUsed() {
        JsonNode components = document.document().path("components");
        Set<String> responses = new TreeSet<>();
        Set<String> examples = new TreeSet<>();
        document.document().path("paths").forEach(item -> item.forEach(op -> op.path("responses").forEach(
                response -> responses.add(response.path("$ref").asText().replace("#/components/responses/", "")))));
        components.path("responses").forEach(response -> response.path("content").forEach(media -> media
                .path("examples").forEach(ref -> examples.add(ref.path("$ref").asText()
                        .replace("#/components/examples/", "")))));
        assertThat(responses).as("components/responses named by an operation")
                .containsAll(names(components.path("responses")));
        assertThat(examples).as("components/examples named by a response")
                .containsAll(names(components.path("examples")));
    }

    @Test
    void everyProblemTypeTheCodeAnswersIsInTheCatalogue() throws IOException {
        Pattern literal = Pattern.compile("(?:Problem\\.of|conflict)\\(\\s*\"([a-z0-9-]+)\"");
        Set<String> answered = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher m = literal.matcher(Files.readString(file));
                while (m.find()) {
                    answered.add(m.group(1));
                }
            }
        }
        // ProblemMappers names the framework's refusals after their reason phrase (415 and 406 here)
        answered.addAll(List.of("unsupported-media-type", "not-acceptable"));
        assertThat(answered).hasSizeGreaterThan(15);
        Map<String, Object> catalogue = catalogue();
        assertThat(catalogue.keySet()).as("META-INF/openapi.yaml's components/examples: the problem types")
                .containsAll(answered);
        catalogue.forEach((slug, example) -> assertThat(String.valueOf(((Map<?, ?>) ((Map<?, ?>) example)
                .get("value")).get("type"))).as(slug).isEqualTo(Problem.TYPE_BASE + slug));
    }

    @Test
    void theDocumentHasEveryRouteOfTheCodeButThePagesForPeople() {
        // nor the routes only the service's own process calls (AccessRulesTest's PROCESS rule): not an API for clients
        Set<String> code = JaxRsRoutes.all().stream().filter(r -> !PAGES.contains(r.resource().getName()))
                .filter(r -> AccessRulesTest.rule(new AccessRulesTest.Route(r.method(), r.path(), r.bodyType()))
                        .orElse(null) != AccessRulesTest.Rule.PROCESS)
                .map(JaxRsRoutes.Route::key).collect(Collectors.toCollection(TreeSet::new));
        Set<String> documented = document.operations().stream().map(OpenApiOperations.Op::key)
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(documented).isEqualTo(code);
        assertThat(JaxRsRoutes.all()).as("the pages are still there").anyMatch(r -> r.path().equals("/admin"))
                .anyMatch(r -> r.path().equals("/scan"));
    }

    /**
     * docs/api.md's table of answers (one row an operation: its operationId, method and path, and its statuses with
     * their problem types) is the document's, row for row; and each operation's section names no status or problem
     * type that the document does not declare for it.
     */
    @Test
    void docsApiMdAgreesWithTheDocumentOnEveryStatus() throws IOException {
        String markdown = Files.readString(API_MD);
        Map<String, String> expected = new LinkedHashMap<>();
        for (OpenApiOperations.Op op : document.operations()) {
            expected.put(op.operationId(), row(op));
        }
        Map<String, String> table = table(markdown);
        String wanted = expected.values().stream().sorted().collect(Collectors.joining("\n"));
        assertThat(table.keySet()).as("docs/api.md's table of answers (%s) lists the operations; the rows:%n%s",
                TABLE_HEADING, wanted).containsExactlyInAnyOrderElementsOf(expected.keySet());
        SoftAssertions softly = new SoftAssertions();
        expected.forEach((id, row) -> softly.assertThat(table.get(id)).as("docs/api.md's row for %s", id)
                .isEqualTo(row));
        Set<String> slugs = catalogue().keySet();
        Pattern status = Pattern.compile("\\*\\*([1-5]\\d\\d)\\*\\*");
        Pattern code = Pattern.compile("`([a-z0-9-]+)`");
        guideSections(markdown).forEach((key, section) -> {
            OpenApiOperations.Op op = document.operations().stream().filter(o -> o.key().equals(key)).findFirst()
                    .orElse(null);
            if (op == null) {
                return; // everyOperationIsNamedTaggedDescribedAndInTheGuide names it
            }
            Matcher s = status.matcher(section);
            while (s.find()) {
                softly.assertThat(op.statuses()).as("docs/api.md's section %s says **%s**", key, s.group(1))
                        .contains(s.group(1));
            }
            Set<String> types = new TreeSet<>();
            op.statuses().forEach(st -> types.addAll(types(op.node().path("responses").path(st).path("content")
                    .path(PROBLEM).path("schema"))));
            Matcher c = code.matcher(section);
            while (c.find()) {
                if (slugs.contains(c.group(1))) {
                    softly.assertThat(types).as("docs/api.md's section %s names `%s`", key, c.group(1))
                            .contains(Problem.TYPE_BASE + c.group(1));
                }
            }
        });
        softly.assertAll();
    }

    @Test
    void theGeneratedClientIsMadeFromTheDocumentAsServed() throws IOException {
        Object served = new Yaml(new LoaderOptions()).load(yaml);
        Object copy = new Yaml(new LoaderOptions()).load(Files.readString(CLIENT_COPY));
        if (!served.equals(copy)) {
            Files.createDirectories(SERVED_COPY.getParent());
            Files.writeString(SERVED_COPY, yaml, StandardCharsets.UTF_8);
        }
        assertThat(served).as("the served document differs from %s, which the generated client is made from: review "
                + "the change, then cp %s %s", CLIENT_COPY, SERVED_COPY, CLIENT_COPY).isEqualTo(copy);
    }

    @Test
    void theFrameworksRefusalsAreTheDeclaredProblems() {
        // 406: an Accept without the operation's media type; 415: a body of a type the operation does not take
        Response notAcceptable = anonymous().accept("image/png").get("/api/sets");
        assertThat(notAcceptable.statusCode()).isEqualTo(406);
        assertThat(notAcceptable.contentType()).startsWith(PROBLEM);
        assertThat(notAcceptable.jsonPath().getString("type")).isEqualTo(Problem.TYPE_BASE + "not-acceptable");
        String json = "This operation takes a body of type application/json.";
        String photo = "This operation takes a body of type image/jpeg, image/png or application/octet-stream.";
        Map<Response, String> unsupported = new LinkedHashMap<>();
        unsupported.put(asOperator().contentType("text/plain").body("manual").post("/api/refreshes"), json);
        unsupported.put(asOperator().contentType("text/plain").body("manual").post("/api/art-builds/"), json);
        unsupported.put(anonymous().contentType("text/plain").body("not a photo").post("/api/art-index/matches"),
                photo);
        unsupported.put(anonymous().contentType("image/gif").body("GIF89a".getBytes(StandardCharsets.US_ASCII)).post("/api/art-index/matches"), photo);
        unsupported.forEach((answer, detail) -> {
            assertThat(answer.statusCode()).as(answer.asString()).isEqualTo(415);
            assertThat(answer.jsonPath().getString("type")).isEqualTo(Problem.TYPE_BASE + "unsupported-media-type");
            assertThat(answer.jsonPath().getString("detail")).as("what the operation takes").isEqualTo(detail);
        });
        // a form without the admin page's CSRF token, on a POST that takes no body: the filter's bare 400
        Response form = asOperator().contentType("application/x-www-form-urlencoded").formParam("scope", "x")
                .post("/api/scryfall/quiet-windows/api.scryfall.com/close");
        assertThat(form.statusCode()).isEqualTo(400);
        assertThat(form.asString()).isEmpty();
        // and on one that takes a body, its content type is refused first (docs/api.md#access)
        for (String path : List.of("/api/refreshes", "/api/art-builds", "/api/art-index/matches")) {
            for (RequestSpecification sent : List.of(
                    asOperator().contentType("application/x-www-form-urlencoded").formParam("trigger", "manual"),
                    asOperator().multiPart("trigger", "manual"))) {
                Response refused = sent.post(path);
                assertThat(refused.statusCode()).as(path + ": " + refused.asString()).isEqualTo(415);
                assertThat(refused.jsonPath().getString("type")).isEqualTo(Problem.TYPE_BASE
                        + "unsupported-media-type");
                assertThat(refused.jsonPath().getString("detail")).as(path)
                        .isEqualTo(path.endsWith("matches") ? photo : json);
            }
        }
    }

    /** {@code `id` | `METHOD /path` | 200; 400 `invalid-request`; 503 `a` `b`} as the table writes it. */
    static String row(OpenApiOperations.Op op) {
        List<String> answers = new ArrayList<>();
        for (String status : op.statuses()) {
            Set<String> types = types(op.node().path("responses").path(status).path("content").path(PROBLEM)
                    .path("schema"));
            answers.add(status + types.stream().map(t -> " `" + t.substring(Problem.TYPE_BASE.length()) + "`")
                    .collect(Collectors.joining()));
        }
        return "| `" + op.operationId() + "` | `" + op.key() + "` | " + String.join("; ", answers) + " |";
    }

    /**
     * The operations' sections of docs/api.md by {@code "METHOD /path"}: a heading of level 3 that names operations
     * in backticks and its text up to the next heading of level 3 or less. The guide is read here only to hold it to
     * the document, never to make the document.
     */
    static Map<String, String> guideSections(String markdown) {
        Map<String, String> sections = new LinkedHashMap<>();
        List<String> keys = List.of();
        StringBuilder text = new StringBuilder();
        boolean fenced = false;
        for (String line : (markdown + "\n# end").split("\\R", -1)) {
            fenced ^= line.startsWith("```");
            Matcher heading = GUIDE_HEADING.matcher(line);
            if (fenced || !heading.matches()) {
                text.append(line).append('\n');
                continue;
            }
            for (String key : keys) {
                assertThat(sections.put(key, text.toString())).as("docs/api.md's sections for %s", key).isNull();
            }
            text.setLength(0);
            keys = new ArrayList<>();
            Matcher operation = GUIDE_OPERATION.matcher(heading.group(2));
            while (heading.group(1).length() == 3 && operation.find()) {
                keys.add(operation.group(1) + " " + operation.group(2));
            }
        }
        return sections;
    }

    /** The rows of docs/api.md's table of answers by operationId. */
    static Map<String, String> table(String markdown) {
        int start = markdown.indexOf("\n" + TABLE_HEADING + "\n");
        assertThat(start).as("docs/api.md has a section %s", TABLE_HEADING).isNotNegative();
        Map<String, String> rows = new LinkedHashMap<>();
        Pattern row = Pattern.compile("^\\| `([A-Za-z]+)` \\|.*\\|$");
        for (String line : markdown.substring(start + TABLE_HEADING.length() + 2).split("\n")) {
            if (line.startsWith("#")) {
                break;
            }
            Matcher m = row.matcher(line.strip());
            if (m.matches()) {
                rows.put(m.group(1), line.strip());
            }
        }
        return rows;
    }

    /** The problem types a response's schema allows: its {@code type}'s const or enum under {@code allOf}. */
    static Set<String> types(JsonNode schema) {
        Set<String> types = new TreeSet<>();
        for (JsonNode part : iterable(schema.path("allOf"))) {
            JsonNode type = part.path("properties").path("type");
            if (type.has("const")) {
                types.add(type.get("const").asText());
            }
            type.path("enum").forEach(t -> types.add(t.asText()));
        }
        return types;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> catalogue() throws IOException {
        Map<String, Object> file = new Yaml(new LoaderOptions()).load(Files.readString(CATALOGUE));
        return (Map<String, Object>) ((Map<String, Object>) file.get("components")).get("examples");
    }

    private static Set<String> names(JsonNode node) {
        Set<String> names = new TreeSet<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static Iterable<JsonNode> iterable(JsonNode node) {
        List<JsonNode> values = new ArrayList<>();
        Iterator<JsonNode> elements = node.elements();
        elements.forEachRemaining(values::add);
        return values;
    }
}
