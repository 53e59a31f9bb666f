package dev.cardcatalog.platform;

import static dev.cardcatalog.testing.TestUsers.anonymous;
import static dev.cardcatalog.testing.TestUsers.asOperator;
import static dev.cardcatalog.testing.TestUsers.asViewer;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.JaxRsRoutes;
import dev.cardcatalog.testing.TestUsers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

/**
 * Who may call what (SERVICE.md §7), checked route by route from the service's own code (every Jakarta REST route,
 * {@link JaxRsRoutes}, the admin and scan pages' too, which the OpenAPI document leaves out): a route that {@link #RULES} does
 * not list fails the build, so a new endpoint cannot ship without a decision. OpenApiDocumentTest checks that the
 * document says the same.
 */
@QuarkusTest
@WithTestResource(CardCatalogTestResource.class)
class AccessRulesTest {

    /** Who may call a route. */
    enum Rule {
        /** anyone, without credentials */
        PUBLIC,
        /** a user with role {@code viewer} or {@code operator} */
        VIEWER,
        /** a user with role {@code operator} */
        OPERATOR,
        /**
         * the service's own process only (the match warm-up's requests, with its random token): 404 problem+json to
         * anyone else, with credentials or without, as a path that does not exist
         */
        PROCESS
    }

    /**
     * Every route's rule, keyed {@code "METHOD /path"} with the path as the OpenAPI document writes it
     * ({@code /api/jobs/{id}}). A key ending in {@code /**} covers every route under that path.
     */
    static final Map<String, Rule> RULES = rules(
            "GET /api/cards", Rule.PUBLIC,
            "GET /api/cards/{id}", Rule.PUBLIC,
            "GET /api/sets", Rule.PUBLIC,
            "GET /api/sets/{code}", Rule.PUBLIC,
            "GET /api/sets/{code}/cards/{number}", Rule.PUBLIC,
            "GET /api/art-index", Rule.PUBLIC,
            "GET /api/art-index/files/{name}", Rule.PUBLIC,
            "POST /api/art-index/matches", Rule.PUBLIC,
            "POST /api/art-index/matches/warm-up", Rule.PROCESS,
            "POST /api/refreshes", Rule.OPERATOR,
            "POST /api/art-builds", Rule.OPERATOR,
            "GET /api/jobs", Rule.VIEWER,
            "GET /api/jobs/{id}", Rule.VIEWER,
            "POST /api/jobs/{id}/run-now", Rule.OPERATOR,
            "POST /api/jobs/{id}/retry", Rule.OPERATOR,
            "POST /api/jobs/{id}/cancel", Rule.OPERATOR,
            "GET /api/scryfall/quiet-windows", Rule.VIEWER,
            "GET /api/scryfall/quiet-windows/{scope}", Rule.VIEWER,
            "POST /api/scryfall/quiet-windows/{scope}/close", Rule.OPERATOR,
            "GET /admin", Rule.VIEWER,
            "POST /admin/**", Rule.OPERATOR,
            "GET /scan", Rule.PUBLIC);

    /**
     * The routes whose answer has a Content-Security-Policy of its own, a page's that shows images from elsewhere
     * ({@link SecurityHeaders#showImagesFrom}); every other route has {@link SecurityHeaders#CONTENT_SECURITY_POLICY}.
     */
    static final Map<String, String> OWN_POLICIES = Map.of(
            "GET /scan", SecurityHeadersTest.SCAN_PAGE_POLICY);

    private static final Pattern PARAMETER = Pattern.compile("\\{([^}/]+)}");
    private static final String PROBLEM = "application/problem+json";

    @TestHTTPResource(management = true)
    URL management;

    /** A route of the OpenAPI document and the media type of its request body, if it takes one. */
    record Route(String method, String path, Optional<String> bodyType) {
        String key() {
            return method + " " + path;
        }
    }

    @Test
    void everyRouteOfTheCodeHasARuleAndEveryRuleARoute() {
        List<Route> routes = routes();
        assertThat(routes).as("routes in the code").hasSizeGreaterThanOrEqualTo(RULES.size());
        assertThat(routes).allSatisfy(route -> assertThat(rule(route))
                .as("%s has no rule in AccessRulesTest.RULES: decide who may call it (SERVICE.md §7)", route.key())
                .isPresent());
        List<String> listed = routes.stream().map(Route::key).toList();
        assertThat(RULES.keySet().stream().filter(key -> !key.endsWith("/**")))
                .as("rules for routes the service does not have").allSatisfy(key -> assertThat(listed).contains(key));
    }

    @Test
    void everyRouteAnswersAsItsRuleSays() {
        SoftAssertions softly = new SoftAssertions();
        for (Route route : routes()) {
            Rule rule = rule(route).orElseThrow(() -> new AssertionError(route.key() + " has no rule"));
            Response asNobody = call(anonymous(), route);
            Response asViewer = call(asViewer(), route);
            Response asOperator = call(asOperator(), route);
            // SERVICE.md §7: every answer nosniff; every answer made for a user not stored
            for (Response response : List.of(asNobody, asViewer, asOperator)) {
                softly.assertThat(response.header("X-Content-Type-Options")).as("%s: X-Content-Type-Options",
                        route.key()).isEqualTo("nosniff");
                softly.assertThat(response.header("Content-Security-Policy")).as("%s: Content-Security-Policy",
                        route.key()).isEqualTo(OWN_POLICIES.getOrDefault(route.key(),
                                SecurityHeaders.CONTENT_SECURITY_POLICY));
            }
            if (rule != Rule.PUBLIC) {
                for (Response response : List.of(asViewer, asOperator)) {
                    softly.assertThat(response.header("Cache-Control")).as("%s as a user (%d): Cache-Control",
                            route.key(), response.statusCode()).isEqualTo("no-store");
                }
            }
            switch (rule) {
                case PUBLIC -> allowed(softly, route, "anonymous", asNobody);
                case VIEWER -> {
                    unauthorized(softly, route, asNobody);
                    allowed(softly, route, "viewer", asViewer);
                    allowed(softly, route, "operator", asOperator);
                }
                case OPERATOR -> {
                    unauthorized(softly, route, asNobody);
                    softly.assertThat(asViewer.statusCode()).as("%s as viewer", route.key()).isEqualTo(403);
                    softly.assertThat(asViewer.contentType()).as("%s as viewer", route.key()).startsWith(PROBLEM);
                    softly.assertThat(asViewer.jsonPath().getString("type")).as("%s as viewer", route.key())
                            .isEqualTo(Problem.TYPE_BASE + "forbidden");
                    allowed(softly, route, "operator", asOperator);
                }
                case PROCESS -> {
                    for (Response response : List.of(asNobody, asViewer, asOperator)) {
                        softly.assertThat(response.statusCode()).as("%s: %s", route.key(), response.asString())
                                .isEqualTo(404);
                        softly.assertThat(response.contentType()).as(route.key()).startsWith(PROBLEM);
                    }
                }
            }
        }
        softly.assertAll();
    }

    @Test
    void aProcessOnlyPathAnswersEveryMethodAsAPathThatDoesNotExist() {
        SoftAssertions softly = new SoftAssertions();
        for (String key : RULES.keySet().stream().filter(k -> RULES.get(k) == Rule.PROCESS).toList()) {
            String path = key.substring(key.indexOf(' ') + 1);
            Response absent = given().get(path + "-not-here");
            for (String method : List.of("GET", "PUT", "DELETE", "PATCH", "POST")) {
                for (RequestSpecification request : List.of(given(), asOperator(),
                        given().header("Card-Catalog-Warm-Up", UUID.randomUUID().toString()),
                        given().contentType("image/jpeg").body(new byte[2048]))) {
                    Response answer = request.request(method, path);
                    String as = method + " " + path + ": " + answer.asString();
                    softly.assertThat(answer.statusCode()).as(as).isEqualTo(404);
                    softly.assertThat(answer.contentType()).as(as).startsWith(PROBLEM);
                    softly.assertThat(answer.jsonPath().getString("type")).as(as)
                            .isEqualTo(absent.jsonPath().getString("type"));
                    softly.assertThat(answer.jsonPath().getString("detail")).as(as)
                            .isEqualTo(absent.jsonPath().getString("detail").replace(path + "-not-here", path));
                }
                // without a body, nothing to drop: the connection stays open, as for any other 404
                softly.assertThat(given().request(method, path).header("Connection")).as(method + " " + path)
                        .isNotEqualToIgnoringCase("close");
            }
        }
        softly.assertAll();
    }

    @Test
    void anUnknownUserAndAWrongPasswordGetTheSameAnswerAndTheAttemptIsLoggedWithoutThePassword() {
        List<String> logged = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger(RefusalMappers.class.getName());
        logger.addHandler(capture);
        try {
            Response wrongPassword = given().auth().preemptive().basic(TestUsers.OPERATOR, "not-the-password-1x")
                    .get("/api/jobs");
            Response unknownUser = given().auth().preemptive().basic("nobody-at-all", "not-the-password-2x")
                    .get("/api/jobs");

            for (Response refused : List.of(wrongPassword, unknownUser)) {
                assertThat(refused.statusCode()).isEqualTo(401);
                assertThat(refused.contentType()).startsWith(PROBLEM);
                // the scheme is case-insensitive (RFC 9110 §11.1); Quarkus writes it "basic"
                assertThat(refused.header("WWW-Authenticate")).isEqualTo(SecurityHeadersTest.BASIC_CHALLENGE);
            }
            assertThat(unknownUser.asString()).isEqualTo(wrongPassword.asString());
            assertThat(wrongPassword.asString()).doesNotContain("nobody-at-all").doesNotContain(TestUsers.OPERATOR);
            assertThat(logged).hasSize(2).allSatisfy(line -> assertThat(line)
                    .matches("credentials refused: Basic credentials from (127\\.0\\.0\\.1|0:0:0:0:0:0:0:1) for GET "
                            + "/api/jobs")
                    .doesNotContain("not-the-password").doesNotContain("nobody-at-all"));
        } finally {
            logger.removeHandler(capture);
        }
    }

    @Test
    void healthMetricsAndOpenApiAreServedOnTheManagementPortOnly() {
        for (String path : List.of("health/live", "health/ready", "health/started", "metrics", "openapi")) {
            given().get(management + path).then().statusCode(200);
            anonymous().get("/q/" + path).then().statusCode(404);
        }
    }

    private static void allowed(SoftAssertions softly, Route route, String who, Response response) {
        softly.assertThat(response.statusCode()).as("%s as %s: %s", route.key(), who, response.asString())
                .isNotIn(401, 403).isLessThan(500);
    }

    private static void unauthorized(SoftAssertions softly, Route route, Response response) {
        String what = route.key() + " without credentials";
        softly.assertThat(response.statusCode()).as(what).isEqualTo(401);
        softly.assertThat(response.header("WWW-Authenticate")).as(what).isEqualTo(SecurityHeadersTest.BASIC_CHALLENGE);
        softly.assertThat(response.contentType()).as(what).startsWith(PROBLEM);
        softly.assertThat(response.jsonPath().getString("type")).as(what).isEqualTo(Problem.TYPE_BASE + "unauthorized");
    }

    /**
     * Calls {@code route} with made-up path parameters (a random UUID for an id, an unknown name otherwise) and, when
     * it takes a body, one that is not valid (an empty image, a JSON array where an object is expected): so a call
     * the rule allows is answered 400 or 404 and changes nothing.
     */
    private static Response call(RequestSpecification request, Route route) {
        Matcher parameter = PARAMETER.matcher(route.path());
        StringBuilder path = new StringBuilder();
        while (parameter.find()) {
            String name = parameter.group(1).toLowerCase(Locale.ROOT);
            parameter.appendReplacement(path, name.endsWith("id") ? UUID.randomUUID().toString() : "zz-unknown");
        }
        parameter.appendTail(path);
        route.bodyType().ifPresent(type -> request.contentType(type)
                .body(type.contains("json") ? "[]".getBytes(StandardCharsets.UTF_8) : new byte[0]));
        return request.request(route.method(), path.toString());
    }

    private static List<Route> routes() {
        return JaxRsRoutes.all().stream().map(r -> new Route(r.method(), r.path(), r.bodyType())).toList();
    }

    /** The route's rule: its own, else the one of the longest {@code /**} key above it. */
    static Optional<Rule> rule(Route route) {
        Rule exact = RULES.get(route.key());
        if (exact != null) {
            return Optional.of(exact);
        }
        return RULES.entrySet().stream()
                .filter(e -> e.getKey().endsWith("/**"))
                .filter(e -> {
                    String prefix = e.getKey().substring(0, e.getKey().length() - 3);
                    return route.key().equals(prefix) || route.key().startsWith(prefix + "/");
                })
                .max(java.util.Comparator.comparingInt(e -> e.getKey().length()))
                .map(Map.Entry::getValue);
    }

    private static Map<String, Rule> rules(Object... keysAndRules) {
        Map<String, Rule> rules = new LinkedHashMap<>();
        for (int i = 0; i < keysAndRules.length; i += 2) {
            rules.put((String) keysAndRules[i], (Rule) keysAndRules[i + 1]);
        }
        return Map.copyOf(rules);
    }
}
