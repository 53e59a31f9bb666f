package dev.cardcatalog.scryfall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.FreshInstanceProfile;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ScryfallStandIn.RecordedRequest;
import dev.cardcatalog.testing.TestData;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Scryfall counts arrivals (SERVICE.md §3.1): right after the service starts, with no connection open yet, the first
 * two API requests still reach the stand-in at least the configured spacing (100 ms) apart, measured where the
 * stand-in receives them. The spacing is measured from when a request goes on the wire, after its connection is
 * set up, not from when it was let go.
 */
@QuarkusTest
@TestProfile(FreshInstanceProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class ColdClientSpacingTest {

    @Inject
    ScryfallClient client;

    @io.quarkus.test.common.http.TestHTTPResource(value = "metrics", management = true)
    java.net.URL metrics;

    private final ScryfallStandIn standIn = ScryfallStandIn.shared();

    @Test
    void theFirstTwoRequestsOfAColdClientArriveAtLeastTheSpacingApart() throws Exception {
        // the instance has sent Scryfall nothing yet: its clients have no connection open (FreshInstanceProfile)
        assertThat(dev.cardcatalog.testing.PrometheusText.parse(io.restassured.RestAssured.get(metrics.toString())
                .then().statusCode(200).extract().asString()))
                .filteredOn(series -> series.name().equals("scryfall_requests_total"))
                .as("Scryfall requests this instance sent before the test").isNotEmpty()
                .allMatch(series -> series.value() == 0);
        warmUpTheStandIn();
        TestData.reset();

        client.bulkData().await().atMost(Duration.ofSeconds(30));
        client.sets().await().atMost(Duration.ofSeconds(30));

        List<RecordedRequest> requests = standIn.requests();
        assertThat(requests).extracting(RecordedRequest::path).startsWith("/bulk-data", "/sets");
        Duration gap = Duration.between(requests.get(0).receivedAt(), requests.get(1).receivedAt());
        assertThat(gap).isGreaterThanOrEqualTo(Duration.ofMillis(100));
    }

    /**
     * Scryfall's servers are warm; the stand-in, started in this JVM, is not, and its first request ever is handled
     * tens of milliseconds late. One request from another client first, so the arrivals measure the service's
     * client alone.
     */
    private void warmUpTheStandIn() throws Exception {
        HttpClient other = HttpClient.newHttpClient();
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> answer = other.send(HttpRequest.newBuilder(URI.create(standIn.baseUrl() + "/bulk-data"))
                    .header("Accept", "application/json").header("User-Agent", "card-catalog-test/1 (+https://example.org)")
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).isEqualTo(200);
        }
    }
}
