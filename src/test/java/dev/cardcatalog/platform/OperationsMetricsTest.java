package dev.cardcatalog.platform;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.testing.ArtProfile;
import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.Jobs;
import dev.cardcatalog.testing.MonitoringFiles;
import dev.cardcatalog.testing.MonitoringFiles.Selector;
import dev.cardcatalog.testing.PrometheusText;
import dev.cardcatalog.testing.PrometheusText.Series;
import dev.cardcatalog.testing.SampleArtworks;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ScryfallStandIn.Fault;
import dev.cardcatalog.testing.TestData;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;

/**
 * The series {@code deploy/monitoring/} reads, after use: the meters registered at 0 when the service starts
 * ({@code MonitoringTest}) are the ones the work counts into, with the same labels (a rate-limited refresh, a
 * Retry-After wait, the art build it starts, a photo matched against the index), and the gauges read from
 * PostgreSQL say when work ended. In {@link ArtProfile}, where an applied refresh builds the art index, so that a
 * match finds an index and answers 200 (without one it is a 404, which Quarkus counts under {@code uri="NOT_FOUND"}).
 */
@QuarkusTest
@TestProfile(ArtProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class OperationsMetricsTest {

    @TestHTTPResource(value = "metrics", management = true)
    URL metrics;

    @Test
    void theSeriesRegisteredAtStartAreTheOnesTheWorkCountsInto() throws IOException {
        TestData.reset();
        List<Series> before = exposed();
        // waited in the call: 1 s is within ArtProfile's MAX_BACK_OFF (4 s)
        ScryfallStandIn.shared().enqueue("/bulk-data", Fault.status(429).header("Retry-After", "1"));
        String build = SampleArtworks.refreshThenBuildId();
        assertThat(Jobs.awaitState(build, java.time.Duration.ofSeconds(120), Jobs.FINISHED).getString("state"))
                .isEqualTo("succeeded");
        given().contentType("image/jpeg").body(Files.readAllBytes(Path.of("docs/examples/photo-of-a-card.jpg")))
                .post("/api/art-index/matches").then().statusCode(200);

        List<Series> exposed = exposed();
        Set<Selector> selectors = new LinkedHashSet<>();
        MonitoringFiles.expressions().forEach(expression -> selectors.addAll(MonitoringFiles.selectors(expression)));
        List<String> missing = new ArrayList<>();
        for (Selector selector : selectors) {
            if (exposed.stream().noneMatch(selector::selects)) {
                missing.add(selector.toString());
            }
        }
        assertThat(missing).as("series the rules or the dashboard read that /q/metrics does not have").isEmpty();
        // every series of a name has the same label names: the meters registered at start are the ones counted
        for (String name : selectors.stream().map(Selector::name).distinct().toList()) {
            assertThat(exposed).filteredOn(s -> s.name().equals(name)).extracting(s -> s.labels().keySet())
                    .as("label names of %s", name).containsOnly(exposed.stream().filter(s -> s.name().equals(name))
                            .findFirst().orElseThrow().labels().keySet());
        }

        // what the work counted, in the series the start registered (this instance's counters go on from the
        // classes that used it before)
        String host = "127.0.0.1:" + URI.create(ScryfallStandIn.shared().baseUrl()).getPort();
        assertThat(counted(before, exposed, "scryfall_requests_total", "host", host, "status", "429")).isEqualTo(1);
        assertThat(counted(before, exposed, "scryfall_requests_total", "host", host, "status", "2xx"))
                .isGreaterThan(1);
        assertThat(counted(before, exposed, "scryfall_rate_limits_total", "host", host)).isEqualTo(1);
        assertThat(counted(before, exposed, "scryfall_waits_seconds_total")).isGreaterThanOrEqualTo(1);
        // Quarkus records a request once its answer has gone: the client may read /q/metrics a moment before
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(counted(before, exposed(), "http_server_requests_seconds_count",
                        "uri", "/api/art-index/matches", "method", "POST", "status", "200"))
                        .as("the match upload, in %s", exposed().stream()
                                .filter(s -> s.name().equals("http_server_requests_seconds_count")).toList())
                        .isEqualTo(1));
    }

    private List<Series> exposed() {
        return PrometheusText.parse(given().get(metrics.toString()).then().statusCode(200).extract().asString());
    }

    private static double counted(List<Series> before, List<Series> after, String name, String... labels) {
        return value(after, name, labels) - value(before, name, labels);
    }

    private static double value(List<Series> exposed, String name, String... labels) {
        return exposed.stream().filter(s -> s.name().equals(name)).filter(s -> {
            for (int i = 0; i < labels.length; i += 2) {
                if (!labels[i + 1].equals(s.labels().get(labels[i]))) {
                    return false;
                }
            }
            return true;
        }).mapToDouble(Series::value).sum();
    }

    @Test
    void theGaugesSayWhenTheLastRefreshOfEachTriggerEndedAndWhenTheIndexWasPublished() {
        TestData.reset();
        // read from PostgreSQL every 10 s: nothing yet
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(25))
                .pollInterval(java.time.Duration.ofMillis(500))
                .until(() -> gauge("catalog_last_applied_time_seconds", "") == 0
                        && gauge("art_index_last_published_time_seconds", "") == 0);

        assertThat(SampleArtworks.refreshThenBuildReusingFingerprints().getString("state")).isEqualTo("succeeded");
        io.restassured.path.json.JsonPath refresh = Jobs.get((String) dev.cardcatalog.testing.TestDatabase.value(
                "SELECT id::text FROM job WHERE kind = 'refresh'"));
        double ended = java.time.Instant.parse(refresh.getString("runs[0].finished_at")).toEpochMilli() / 1000.0;
        double published = java.time.Instant.parse(given().get("/api/art-index").then().statusCode(200).extract()
                .jsonPath().getString("written_at")).toEpochMilli() / 1000.0;

        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(25))
                .pollInterval(java.time.Duration.ofMillis(500))
                .until(() -> gauge("refreshes_last_success_time_seconds", "trigger=\"manual\"") == ended
                        && gauge("art_index_last_published_time_seconds", "") == published);
        assertThat(gauge("catalog_last_applied_time_seconds", "")).isEqualTo(ended);
        assertThat(gauge("refreshes_last_success_time_seconds", "trigger=\"scheduled\"")).isZero();
        assertThat(gauge("jobs_by_state", "state=\"succeeded\"")).isEqualTo(1);
        assertThat(gauge("jobs_by_state", "kind=\"art-build\",state=\"succeeded\"")).isEqualTo(1);
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
}
