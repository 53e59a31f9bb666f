package dev.cardcatalog.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ServiceProcess;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A catalog that really shrank (SERVICE.md §5.8), on two replicas: the plain art build fails for its count and the
 * current index stays on both; the build with an operator's consent publishes the smaller index, and every replica
 * serves it within 5 s, whichever of them built it.
 */
class SmallerIndexReplicasIT {

    private static final Map<String, String> CONFIG = Map.of(
            "card-catalog.art.image-hosts", "cards.scryfall.io,c1.scryfall.com",
            "card-catalog.scryfall.image-spacing", "2ms",
            "card-catalog.art.index-poll-interval", "1s");

    @Test
    void theConsentedBuildPublishesTheSmallerIndexOnEveryReplica() {
        try (Instances instances = new Instances()) {
            ServiceProcess a = instances.start("a", CONFIG);
            ServiceProcess b = instances.start("b", CONFIG);
            instances.awaitConsumers();
            List<ServiceProcess> both = List.of(a, b);
            assertThat(finish(a, post(a, "/api/refreshes", "{}"), both).getString("state")).isEqualTo("succeeded");
            assertThat(finish(b, post(b, "/api/art-builds", "{}"), both).getString("state")).isEqualTo("succeeded");
            String full = awaitIndexOnEvery(both, null);
            int fullCount = index(a).getInt("count");

            // Scryfall's next file holds fewer cards: the refresh retires the others
            ScryfallStandIn.shared().serveDefaultCards("default-cards-20990101000000",
                    ScryfallStandIn.sampleCardLines().subList(0, 300));
            assertThat(finish(a, post(a, "/api/refreshes", "{}"), both).getString("state")).isEqualTo("succeeded");

            JsonPath plain = finish(a, post(a, "/api/art-builds", "{}"), both);
            assertThat(plain.getString("state")).isEqualTo("failed");
            long smaller = plain.getLong("runs[0].counts.index_artworks");
            assertThat(smaller).isPositive().isLessThan(fullCount);
            for (ServiceProcess replica : both) {
                assertThat(index(replica).getString("file_name")).isEqualTo(full);
            }

            JsonPath consented = finish(b, post(b, "/api/art-builds", "{\"accept_fewer_artworks\":true}"), both);
            assertThat(consented.getString("state")).as(consented.prettify()).isEqualTo("succeeded");
            assertThat(consented.getString("consented_by")).isEqualTo("operator");
            String name = awaitIndexOnEvery(both, full);
            for (ServiceProcess replica : both) {
                JsonPath index = index(replica);
                assertThat(index.getString("file_name")).isEqualTo(name);
                assertThat(index.getLong("count")).isEqualTo(smaller);
            }
        }
    }

    /** The name every replica serves once they agree on one other than {@code not}, within 5 s. */
    private static String awaitIndexOnEvery(List<ServiceProcess> replicas, String not) {
        String[] name = new String[1];
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(() -> {
            List<String> names = replicas.stream().map(r -> index(r).getString("file_name")).distinct().toList();
            name[0] = names.get(0);
            return names.size() == 1 && !name[0].equals(not);
        });
        return name[0];
    }

    private static String post(ServiceProcess service, String path, String body) {
        return given().baseUri(service.baseUrl()).auth().preemptive().basic("operator", "operator-test-password")
                .contentType("application/json").body(body).post(path)
                .then().statusCode(202).extract().jsonPath().getString("id");
    }

    private static JsonPath finish(ServiceProcess service, String jobId, List<ServiceProcess> witnesses) {
        return TakeoverIT.awaitFinished(service, jobId, Duration.ofSeconds(180), witnesses);
    }

    private static JsonPath index(ServiceProcess service) {
        return given().baseUri(service.baseUrl()).get("/api/art-index").then().statusCode(200).extract().jsonPath();
    }
}
