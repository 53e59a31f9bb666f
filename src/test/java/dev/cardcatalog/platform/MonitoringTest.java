package dev.cardcatalog.platform;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.FreshInstanceProfile;
import dev.cardcatalog.testing.MonitoringFiles;
import dev.cardcatalog.testing.MonitoringFiles.Selector;
import dev.cardcatalog.testing.PrometheusText;
import dev.cardcatalog.testing.PrometheusText.Series;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The alert rules and the dashboard in {@code deploy/monitoring/} read series the service really exposes, from the
 * moment it starts: against an instance nothing has used yet ({@link FreshInstanceProfile}), before any request,
 * every series selector of every rule and panel selects at least one series of {@code /q/metrics}, and the
 * counters among them stand at 0. So a renamed metric breaks the build, not the alert; a panel never shows "No
 * data" on a new replica; and an {@code increase()} sees the first event after a restart (a series that appears at
 * its first event, at 1, has no 0 before it). The selectors are read from the files by
 * {@link MonitoringFiles#selectors}, whose own behaviour is checked on expressions of each shape, so a new rule or
 * panel is checked without being named here. {@code OperationsMetricsTest} checks the same series after use; the
 * alerts' behaviour is {@code AlertRulesTest}'s (promtool).
 */
@QuarkusTest
@TestProfile(FreshInstanceProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class MonitoringTest {

    @TestHTTPResource(value = "metrics", management = true)
    URL metrics;

    @Test
    void aFreshInstanceExportsEverySeriesTheAlertsAndTheDashboardReadWithItsCountersAtZero() {
        List<Series> exposed = PrometheusText.parse(given().get(metrics.toString()).then().statusCode(200).extract()
                .asString());
        // the instance is fresh: it has answered no request (Quarkus's own /q routes are not counted)
        assertThat(exposed).filteredOn(s -> s.name().equals("http_server_requests_seconds_count"))
                .as("requests this instance served before the check: it must be the first class of its profile")
                .allMatch(s -> s.value() == 0);

        Set<Selector> selectors = new LinkedHashSet<>();
        for (String expression : MonitoringFiles.expressions()) {
            List<Selector> found = MonitoringFiles.selectors(expression);
            assertThat(found).as("series in %s", expression).isNotEmpty();
            selectors.addAll(found);
        }
        assertThat(selectors).extracting(Selector::name).contains("refreshes_last_success_time_seconds",
                "art_index_last_published_time_seconds", "catalog_last_applied_time_seconds", "jobs_by_state",
                "jobs_outcomes_total", "jobs_commands_dead_lettered_total", "scryfall_quiet_window_open_seconds",
                "scryfall_requests_total", "scryfall_rate_limits_total", "scryfall_waits_seconds_total",
                "jobs_runs_duration_seconds_max", "jobs_runs_duration_seconds_sum", "art_matches_refused_total",
                "http_server_requests_seconds_count", "http_server_requests_seconds_sum",
                "http_server_requests_seconds_max");

        // and the match side's own series that docs/operations.md names, not read by a rule or a panel yet
        for (String name : List.of("art_decode_memory_reserved_bytes", "art_decode_memory_refused_total",
                "art_matches_running", "art_matches_waiting", "art_matches_expensive_running",
                "art_matches_expensive_waiting", "art_matches_too_costly_total", "art_uploads_receiving",
                "art_uploads_buffered_bytes", "art_uploads_refused_total", "art_uploads_timed_out_total")) {
            selectors.addAll(MonitoringFiles.selectors(name));
        }

        List<String> missing = new ArrayList<>();
        List<String> counted = new ArrayList<>();
        for (Selector selector : selectors) {
            List<Series> selected = exposed.stream().filter(selector::selects).toList();
            if (selected.isEmpty()) {
                missing.add(selector.toString());
            }
            if (selector.name().matches(".*_(total|count|sum|max)")) {
                selected.stream().filter(s -> s.value() != 0).forEach(s -> counted.add(s.toString()));
            }
        }
        assertThat(missing).as("series the rules or the dashboard read that a freshly started instance does not"
                + " export").isEmpty();
        assertThat(counted).as("counters a freshly started instance exports at other than 0").isEmpty();
    }

    @Test
    void everyAlertSaysWhatHappenedAndNamesARunbookEntryThatExists() throws IOException {
        String operations = Files.readString(Path.of("docs/operations.md"));
        List<Map<String, Object>> rules = MonitoringFiles.rules();
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
        assertThat(MonitoringFiles.dashboardExpressions()).hasSizeGreaterThanOrEqualTo(10);
    }

    @Test
    void selectorsAreTheMetricNamesWithTheirMatchersNeitherFunctionsNorLabelsNorKeywords() {
        assertThat(MonitoringFiles.selectors("time() - max(refreshes_last_success_time_seconds) > 8 * 86400"))
                .hasToString("[refreshes_last_success_time_seconds]");
        assertThat(MonitoringFiles.selectors(
                "max by (kind) (delta(jobs_by_state{state=\"failed\", kind=~\"art.*\"}[1h])) > 0"))
                .hasToString("[jobs_by_state{state=\"failed\", kind=~\"art.*\"}]");
        assertThat(MonitoringFiles.selectors("sum(rate(a_total{uri=\"/x\"}[5m])) / sum without (instance)"
                + " (rate(b_count[5m])) and on (job) c_seconds offset 1h unless ignoring(pod) d"))
                .extracting(Selector::name).containsExactly("a_total", "b_count", "c_seconds", "d");
        assertThat(MonitoringFiles.selectors("sum by (host, status) (rate(x_total{status!=\"2xx\",host!~\"a|b\"}[5m]))"
                + " + topk(3, y) + label_replace(z, \"dst\", \"$1\", \"src\", \"(.*)\")"))
                .hasToString("[x_total{status!=\"2xx\", host!~\"a|b\"}, y, z]");
        assertThat(MonitoringFiles.selectors("{__name__=\"x\", job=\"a\"} + {__name__=~\"y.*\"}"))
                .hasToString("[x{job=\"a\"}]");

        Series series = new Series("x_total", Map.of("host", "a", "status", "429"), 0);
        assertThat(MonitoringFiles.selectors("x_total{status=\"429\"}").get(0).selects(series)).isTrue();
        assertThat(MonitoringFiles.selectors("x_total{status=~\"4..\", host!=\"b\"}").get(0).selects(series)).isTrue();
        assertThat(MonitoringFiles.selectors("x_total{status=~\"4\"}").get(0).selects(series))
                .as("a regex matches the whole value").isFalse();
        assertThat(MonitoringFiles.selectors("x_total{uri=\"\"}").get(0).selects(series))
                .as("a missing label is empty").isTrue();
        assertThat(MonitoringFiles.selectors("x_total{status!~\"4.*\"}").get(0).selects(series)).isFalse();
        assertThat(MonitoringFiles.selectors("y_total").get(0).selects(series)).isFalse();
    }
}
