package dev.cardcatalog.catalog;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.Jobs;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.TestData;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The catalog's read API over a catalog refreshed from the bundled sample. */
@QuarkusTest
@WithTestResource(CardCatalogTestResource.class)
class CardResourceTest {

    private static boolean refreshed;

    /** The OpenAPI document is on the management interface, not the public port. */
    @TestHTTPResource(value = "openapi", management = true)
    URL openApiUrl;

    @BeforeEach
    void refreshOnce() {
        if (!refreshed) {
            TestData.reset();
            Jobs.awaitFinished(Jobs.postRefresh("manual"));
            refreshed = true;
        }
    }

    @Test
    void aCardByIdCarriesScryfallsWholeObject() {
        given().get("/api/cards/e9d5aee0-5963-41db-a22b-cfea40a967a3").then().statusCode(200)
                .body("name", equalTo("Dusk // Dawn"))
                .body("set", equalTo("c19"))
                .body("collector_number", equalTo("63"))
                .body("scryfall.layout", equalTo("split"))
                .body("scryfall.card_faces.name", contains("Dusk", "Dawn"))
                .body("retired_at", nullValue());
    }

    @Test
    void namesAreFoundWhateverTheirCaseAndAccentsAndByEitherFace() {
        given().queryParam("name", "DAWN").get("/api/cards").then().statusCode(200)
                .body("items.name", hasItem("Dusk // Dawn"));
        given().queryParam("name", "merciless predator").get("/api/cards").then().statusCode(200)
                .body("items.name", contains("Reckless Waif // Merciless Predator"));
        given().queryParam("name", "grishnakh").get("/api/cards").then().statusCode(200)
                .body("items.name", contains("Grishnákh, Brash Instigator"));
        given().queryParam("name", "100%").get("/api/cards").then().statusCode(200)
                .body("items", hasSize(0));
    }

    @Test
    void resultsArePaged() {
        given().queryParam("name", "e").queryParam("size", 5).queryParam("page", 2).get("/api/cards")
                .then().statusCode(200)
                .body("page", equalTo(2))
                .body("size", equalTo(5))
                .body("items", hasSize(5))
                .body("total", not(equalTo(0)));
        given().queryParam("name", "e").queryParam("size", 500).get("/api/cards")
                .then().statusCode(400).contentType("application/problem+json").body("field", equalTo("size"));
    }

    @Test
    void aCardBySetAndCollectorNumber() {
        given().queryParam("set", "C19").queryParam("collector_number", "63").get("/api/cards").then()
                .statusCode(200).body("items.name", contains("Dusk // Dawn"));
        given().get("/api/sets/c19/cards/63").then().statusCode(200).body("name", equalTo("Dusk // Dawn"));
        given().get("/api/sets/c19/cards/9999").then().statusCode(404)
                .contentType("application/problem+json");
    }

    @Test
    void setsAreListed() {
        given().get("/api/sets").then().statusCode(200).body("$", hasSize(ScryfallStandIn.SAMPLE_SETS));
        given().get("/api/sets/ktk").then().statusCode(200).body("name", equalTo("Khans of Tarkir"));
    }

    @Test
    void theOpenApiDocumentUsesTheApisSnakeCaseNames() {
        String openApi = given().queryParam("format", "json").get(openApiUrl).then().statusCode(200)
                .extract().asString();
        org.assertj.core.api.Assertions.assertThat(openApi).contains("\"collector_number\"", "\"retry_count\"")
                .doesNotContain("\"collectorNumber\"", "\"retryCount\"");
    }

    @Test
    void badAndUnknownIdsAreProblems() {
        given().get("/api/cards/not-a-uuid").then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("id"));
        given().get("/api/cards/00000000-0000-4000-8000-000000000000").then().statusCode(404)
                .contentType("application/problem+json")
                .body("type", equalTo("https://card-catalog.dev/problems/not-found"));
        given().get("/api/cards").then().statusCode(400).contentType("application/problem+json");
        given().queryParam("name", "zzz").get("/api/cards").then().statusCode(200)
                .body("items", hasSize(0));
    }
}
