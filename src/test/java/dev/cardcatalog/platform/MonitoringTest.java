package dev.cardcatalog.platform;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.Jobs;
import dev.cardcatalog.testing.PrometheusText;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ScryfallStandIn.Fault;
import dev.cardcatalog.testing.TestData;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The alert rules and the dashboard in {@code deploy/monitoring/} read metrics the service really exposes: every
 * metric name in every PromQL expression is found in {@code /q/metrics}, so a renamed metric breaks the build, not
 * the alert. Each alert names a runbook entry that docs/operations.md has. The names are read from the expressions
 * by {@link #metricNames}, whose own behaviour is checked on a few expressions of each shape.
 */
@QuarkusTest
@WithTestResource(CardCatalogTestResource.class)
class MonitoringTest {

    private static final Path MONITORING = Path.of("deploy/monitoring");
    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left",
            "group_right", "and", "or", "unless", "bool", "offset", "inf", "nan");

    @TestHTTPResource(value = "metrics", management = true)
    URL metrics;

    @Test
    void everyMetricTheAlertsAndTheDashboardReadIsOnQMetrics() throws IOException {
        // the meters made on first use: a Scryfall request, a wait for Retry-After, a rate limit, a match upload
        TestData.reset();
        ScryfallStandIn.shared().enqueue("/bulk-data", Fault.status(429).header("Retry-After", "1"));
        Jobs.awaitFinished(Jobs.postRefresh("manual"));
        given().contentType("image/jpeg").body(Files.readAllBytes(Path.of("docs/examples/photo-of-a-card.jpg")))
                .post("/api/art-index/matches");

        String exposed = given().get(metrics.toString()).then().statusCode(200).extract().asString();
        Set<String> names = new LinkedHashSet<>();
        for (String expression : expressions()) {
            Set<String> found = metricNames(expression);
            assertThat(found).as("metrics in %s", expression).isNotEmpty();
            names.addAll(found);
        }
        assertThat(names).contains("refreshes_last_success_time_seconds", "art_index_last_published_time_seconds",
                "catalog_last_applied_time_seconds", "jobs_by_state", "jobs_commands_dead_lettered_total",
                "scryfall_quiet_window_open_seconds", "scryfall_requests_total", "jobs_runs_duration_seconds_max",
                "http_server_requests_seconds_count");
        List<String> missing = names.stream()
                .filter(name -> !Pattern.compile("(?m)^" + Pattern.quote(name) + "[{ ]").matcher(exposed).find())
                .toList();
        assertThat(missing).as("metric names the rules or the dashboard read that /q/metrics does not have").isEmpty();
    }

    @Test
    void theLastSuccessfulRefreshGaugeSaysWhenTheRefreshEndedForItsTriggerOnly() {
        TestData.reset();
        io.restassured.path.json.JsonPath done = Jobs.awaitFinished(Jobs.postRefresh("manual"));
        double ended = java.time.Instant.parse(done.getString("runs[0].finished_at")).toEpochMilli() / 1000.0;

        // read from PostgreSQL every 10 s
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(25))
                .pollInterval(java.time.Duration.ofMillis(500))
                .until(() -> gauge("refreshes_last_success_time_seconds", "trigger=\"manual\"") == ended);
        assertThat(gauge("catalog_last_applied_time_seconds", "")).isEqualTo(ended);
        assertThat(gauge("refreshes_last_success_time_seconds", "trigger=\"scheduled\"")).isZero();
        assertThat(gauge("art_index_last_published_time_seconds", "")).isZero();
        assertThat(gauge("jobs_by_state", "state=\"succeeded\"")).isEqualTo(1);
    }

    /** The value of the series of {@code name} whose labels contain {@code label}. */
    private double gauge(String name, String label) {
        String exposed = given().get(metrics.toString()).then().statusCode(200).extract().asString();
        Matcher line = PrometheusText.series(name).matcher(exposed);
        while (line.find()) {
            if (line.group(1) == null ? label.isEmpty() : line.group(1).contains(label)
                    && (label.contains("kind") || !line.group(1).contains("kind=\"art-build\""))) {
                return Double.parseDouble(line.group(2));
            }
        }
        throw new AssertionError("no " + name + " with " + label + " in " + exposed);
    }

    @Test
    void everyAlertSaysWhatHappenedAndNamesARunbookEntryThatExists() throws IOException {
        String operations = Files.readString(Path.of("docs/operations.md"));
        List<Map<String, Object>> rules = rules();
        assertThat(rules).extracting(rule -> rule.get("alert")).containsExactlyInAnyOrder(
                "CardCatalogNoSuccessfulRefresh", "CardCatalogJobFailed", "CardCatalogRecordsDeadLettered",
                "CardCatalogQuietWindowOpenLong", "CardCatalogArtIndexBehindCatalog");
        for (Map<String, Object> rule : rules) {
            @SuppressWarnings("unchecked")
            Map<String, Object> annotations = (Map<String, Object>) rule.get("annotations");
            assertThat((String) annotations.get("summary")).as("summary").isNotBlank();
            String runbook = (String) annotations.get("runbook_url");
            assertThat(runbook).contains("docs/operations.md#");
            String anchor = runbook.substring(runbook.indexOf('#') + 1);
            // GitHub's anchor of a heading "### Alert: CardCatalogJobFailed" is "alert-cardcatalogjobfailed"
            assertThat(operations).as("a heading for #%s", anchor)
                    .containsPattern("(?m)^#+ Alert: " + Pattern.quote((String) rule.get("alert")) + "$");
            assertThat(anchor).isEqualTo("alert-" + ((String) rule.get("alert")).toLowerCase(java.util.Locale.ROOT));
        }
    }

    @Test
    void metricNamesAreTheIdentifiersThatAreNeitherFunctionsNorLabelsNorKeywords() {
        assertThat(metricNames("time() - max(refreshes_last_success_time_seconds) > 8 * 86400"))
                .containsExactly("refreshes_last_success_time_seconds");
        assertThat(metricNames("max by (kind) (delta(jobs_by_state{state=\"failed\", kind=~\"art.*\"}[1h])) > 0"))
                .containsExactly("jobs_by_state");
        assertThat(metricNames("sum(rate(a_total{uri=\"/x\"}[5m])) / sum without (instance) (rate(b_count[5m]))"
                + " and on (job) c_seconds offset 1h unless ignoring(pod) d"))
                .containsExactly("a_total", "b_count", "c_seconds", "d");
        assertThat(metricNames("{__name__=\"x\"}")).isEmpty();
    }

    /** The metric names an expression reads: identifiers outside strings, label matchers and ranges. */
    static Set<String> metricNames(String expression) {
        String text = expression.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"")
                .replaceAll("\\{[^}]*}", " ")
                .replaceAll("\\[[^]]*]", " ")
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
        Set<String> names = new LinkedHashSet<>();
        Matcher identifier = Pattern.compile("(?<![A-Za-z0-9_:.])[A-Za-z_:][A-Za-z0-9_:]*(?=\\s*(\\()?)").matcher(text);
        while (identifier.find()) {
            String name = identifier.group();
            boolean function = identifier.group(1) != null;
            if (!function && !KEYWORDS.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                names.add(name);
            }
        }
        return names;
    }

    private static List<String> expressions() throws IOException {
        List<String> expressions = new ArrayList<>();
        for (Map<String, Object> rule : rules()) {
            expressions.add((String) rule.get("expr"));
        }
        assertThat(expressions).hasSize(5);
        JsonNode dashboard = new ObjectMapper().readTree(MONITORING.resolve("card-catalog-dashboard.json").toFile());
        int fromDashboard = 0;
        for (JsonNode panel : dashboard.get("panels")) {
            for (JsonNode target : panel.get("targets")) {
                expressions.add(target.get("expr").asText());
                fromDashboard++;
            }
        }
        assertThat(fromDashboard).isGreaterThanOrEqualTo(10);
        return expressions;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rules() {
        Map<String, Object> rule = ManifestsTest.yaml(MONITORING.resolve("prometheusrule.yaml")).get(0);
        List<Map<String, Object>> rules = new ArrayList<>();
        for (Object group : (List<Object>) ((Map<String, Object>) rule.get("spec")).get("groups")) {
            rules.addAll((List<Map<String, Object>>) ((Map<String, Object>) group).get("rules"));
        }
        return rules;
    }
}
