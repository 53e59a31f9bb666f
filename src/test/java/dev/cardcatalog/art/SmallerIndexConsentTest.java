package dev.cardcatalog.art;

import static dev.cardcatalog.testing.TestUsers.asOperator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.Jobs;
import dev.cardcatalog.testing.SampleArtworks;
import dev.cardcatalog.testing.ShortRetryProfile;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ScryfallStandIn.Fault;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestDatabase;
import dev.cardcatalog.testing.TestKafka;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A catalog that really shrank publishes its smaller index only by an operator's consent (SERVICE.md §5.8): the plain
 * build fails for its count and says by how many artworks; the consented build, from the API or a Kafka command,
 * publishes it and the job records who consented. The consent waives the count rule only: failed images beyond the
 * share still fail the build, and an empty index is never published. Malformed consents are refused naming the field.
 */
@QuarkusTest
@TestProfile(ShortRetryProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class SmallerIndexConsentTest {

    private static final Set<String> ENDED = Set.of("succeeded", "skipped", "failed", "cancelled");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ScryfallStandIn standIn = ScryfallStandIn.shared();

    @BeforeEach
    void reset() {
        TestData.reset();
    }

    @Test
    void aShrunkCatalogFailsThePlainBuildAndPublishesBySomeonesConsent() {
        int full = fullIndex();
        // Scryfall's next file holds the first 300 cards of the sample only
        standIn.serveDefaultCards("default-cards-20990101000000", ScryfallStandIn.sampleCardLines().subList(0, 300));
        refresh();

        JsonPath plain = build("{}");
        assertThat(plain.getString("state")).isEqualTo("failed");
        assertThat(plain.getBoolean("accept_fewer_artworks")).isFalse();
        long wouldHold = plain.getLong("runs[0].counts.index_artworks");
        assertThat(plain.getLong("runs[0].counts.current_index_artworks")).isEqualTo(full);
        assertThat(wouldHold).isPositive().isLessThan(full);
        assertThat(plain.getString("message")).contains("it would hold " + wouldHold + " artworks, fewer than the "
                + full + " of the current index");
        assertThat(index().getInt("count")).isEqualTo(full);

        // the consent in a Kafka command: the job says so and who gave it (the record it came from)
        TestKafka.send("card-catalog.commands", "art-build", "{\"type\":\"art-build\",\"acceptFewerArtworks\":true}");
        await().atMost(Duration.ofSeconds(30)).until(() -> !Jobs.kafkaJobIds().isEmpty());
        JsonPath consented = Jobs.awaitState(Jobs.kafkaJobIds().get(0), Duration.ofSeconds(90), ENDED);
        assertThat(consented.getString("state")).as(consented.prettify()).isEqualTo("succeeded");
        assertThat(consented.getBoolean("accept_fewer_artworks")).isTrue();
        assertThat(consented.getString("consented_by")).startsWith("Kafka command card-catalog.commands/");
        assertThat(consented.getString("runs[0].message"))
                .contains(": " + wouldHold + " artworks (" + (full - wouldHold) + " fewer than the index it replaces,"
                        + " by consent)");
        assertThat(index().getInt("count")).isEqualTo((int) wouldHold);
    }

    @Test
    void theConsentFromTheApiNamesTheOperatorAndStillFailsOnFailedImages() {
        int full = fullIndex();
        standIn.serveDefaultCards("default-cards-20990101000000", ScryfallStandIn.sampleCardLines().subList(0, 300));
        refresh();
        // every image fetched anew, and every fifth answers 404: 20 % failed, beyond the 2 % allowed
        TestDatabase.execute("DELETE FROM art_fingerprint");
        TestData.deleteTree(TestData.DATA_DIR.resolve("art/small"));
        Fault[] faults = new Fault[300];
        Arrays.fill(faults, Fault.pass());
        for (int i = 0; i < faults.length; i += 5) {
            faults[i] = Fault.status(404);
        }
        standIn.enqueue("/", faults);

        JsonPath failed = build("{\"accept_fewer_artworks\": true}");

        assertThat(failed.getString("state")).isEqualTo("failed");
        assertThat(failed.getBoolean("accept_fewer_artworks")).isTrue();
        assertThat(failed.getString("consented_by")).isEqualTo("operator");
        assertThat(failed.getString("message")).contains("images tried failed, more than the 2 % allowed");
        assertThat(index().getInt("count")).isEqualTo(full);
    }

    @Test
    void anEmptyIndexIsNeverPublishedEvenByConsent() {
        int full = fullIndex();
        // the next file's cards have no image at all
        List<String> withoutImages = ScryfallStandIn.sampleCardLines().subList(0, 50).stream()
                .map(SmallerIndexConsentTest::withoutImages).toList();
        standIn.serveDefaultCards("default-cards-20990101000000", withoutImages);
        refresh();

        JsonPath failed = build("{\"accept_fewer_artworks\": true}");

        assertThat(failed.getString("state")).isEqualTo("failed");
        assertThat(failed.getString("message")).contains("it would hold 0 artworks");
        assertThat(index().getInt("count")).isEqualTo(full);
    }

    @Test
    void aConsentThatIsNotTrueOrFalseOrIsForARefreshIsRefusedNamingTheField() {
        asOperator().contentType("application/json").body("{\"accept_fewer_artworks\": true}").post("/api/refreshes")
                .then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("accept_fewer_artworks"));
        asOperator().contentType("application/json").body("{\"accept_fewer_artworks\": \"maybe\"}")
                .post("/api/art-builds").then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("accept_fewer_artworks"));
        assertThat(TestDatabase.count("SELECT count(*) FROM job")).isZero();

        for (String[] refused : new String[][] {
                {"{\"type\":\"art-build\",\"accept_fewer_artworks\":true}", "acceptFewerArtworks"},
                {"{\"type\":\"refresh\",\"acceptFewerArtworks\":true}", "for art-build commands only"},
                {"{\"type\":\"art-build\",\"acceptFewerArtworks\":\"yes\"}", "is not true or false"}}) {
            TestKafka.send("card-catalog.commands", "art-build", refused[0]);
            var dead = TestKafka.awaitValue("card-catalog.commands.dlq", refused[0], Duration.ofSeconds(30));
            assertThat(TestKafka.header(dead, "dead-letter-reason")).contains(refused[1]);
        }
        assertThat(TestDatabase.count("SELECT count(*) FROM job")).isZero();
    }

    /**
     * Refreshes the whole sample and builds its index, with the fingerprints of this JVM's first such build
     * ({@link SampleArtworks#putBackFingerprints()}); returns how many artworks it holds.
     */
    private int fullIndex() {
        refresh();
        SampleArtworks.putBackFingerprints();
        JsonPath built = build("{}");
        assertThat(built.getString("state")).as(built.prettify()).isEqualTo("succeeded");
        SampleArtworks.keepFingerprints(built);
        int count = index().getInt("count");
        assertThat(count).isGreaterThan(300);
        return count;
    }

    private static void refresh() {
        JsonPath job = Jobs.awaitState(Jobs.postRefresh("manual"), Duration.ofSeconds(60), ENDED);
        assertThat(job.getString("state")).isEqualTo("succeeded");
    }

    private static JsonPath build(String body) {
        String id = asOperator().contentType("application/json").body(body).post("/api/art-builds").then()
                .statusCode(202).extract().jsonPath().getString("id");
        return Jobs.awaitState(id, Duration.ofSeconds(90), ENDED);
    }

    private static JsonPath index() {
        return RestAssured.given().get("/api/art-index").then().statusCode(200).extract().jsonPath();
    }

    private static String withoutImages(String line) {
        try {
            ObjectNode card = (ObjectNode) JSON.readTree(line);
            card.remove("image_uris");
            if (card.has("card_faces")) {
                card.get("card_faces").forEach(face -> ((ObjectNode) face).remove("image_uris"));
            }
            return JSON.writeValueAsString(card);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
