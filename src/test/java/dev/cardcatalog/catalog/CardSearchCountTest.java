package dev.cardcatalog.catalog;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.Jobs;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.TestData;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The name search counts at most 1,000 matches and says so; the pages past the thousandth still answer. */
@QuarkusTest
@WithTestResource(CardCatalogTestResource.class)
class CardSearchCountTest {

    private static final String FARID = "003367c7-6cb8-4451-8349-76ce5d21e367";
    private static final int COPIES = 1_050;

    @Test
    void aBroadSearchCountsUpToAThousandAndStillPagesPastIt() {
        TestData.reset();
        String farid = ScryfallStandIn.sampleCardLines().stream()
                .filter(l -> l.contains("\"id\":\"" + FARID + "\"")).findFirst().orElseThrow();
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < COPIES; i++) {
            lines.add(farid.replace(FARID, UUID.randomUUID().toString())
                    .replaceFirst("\"name\":\"[^\"]*\"", "\"name\":\"Countable Salvager " + (10_000 + i) + "\""));
        }
        ScryfallStandIn.shared().serveDefaultCards("default-cards-20261203000000", lines);
        Jobs.awaitFinished(Jobs.postRefresh("manual"));

        given().queryParam("name", "countable").get("/api/cards").then().statusCode(200)
                .body("total", equalTo(1_000)).body("total_capped", equalTo(true))
                .body("items[0].name", equalTo("Countable Salvager 10000"));
        // the last page: 1,050 matches are 53 pages of 20, the 53rd with 10
        given().queryParam("name", "countable").queryParam("page", 53).get("/api/cards").then().statusCode(200)
                .body("items", hasSize(10)).body("items[9].name", equalTo("Countable Salvager 11049"))
                .body("total_capped", equalTo(true));
        given().queryParam("name", "salvager 1104").get("/api/cards").then().statusCode(200)
                .body("total", equalTo(10)).body("total_capped", equalTo(false));
    }
}
