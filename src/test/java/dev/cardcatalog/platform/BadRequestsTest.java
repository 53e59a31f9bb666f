package dev.cardcatalog.platform;

import static dev.cardcatalog.testing.TestUsers.asOperator;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.TestDatabase;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.Test;

/**
 * Requests a client gets wrong: each is a problem+json 400 naming what is wrong, with the request's path as its
 * instance, never a 404, a 500 or an empty body. (Found by trying the running service with bad input.)
 */
@QuarkusTest
@WithTestResource(CardCatalogTestResource.class)
class BadRequestsTest {

    @Test
    void jsonOfTheWrongShapeNamesTheField() {
        for (String body : new String[] {"{\"trigger\":[\"api\"]}", "{\"trigger\":{\"a\":1}}"}) {
            invalid(asOperator().contentType("application/json").body(body).post("/api/refreshes").then(), "trigger")
                    .body("instance", equalTo("/api/refreshes"));
            invalid(asOperator().contentType("application/json").body(body).post("/api/art-builds").then(), "trigger");
        }
        for (String body : new String[] {"[]", "\"api\"", "42"}) {
            invalid(asOperator().contentType("application/json").body(body).post("/api/refreshes").then(), "body")
                    .body("detail", equalTo("The body must be a JSON object."));
        }
    }

    @Test
    void hostileTextInAPathIsEchoedEscapedAndBounded() {
        // NUL, ESC sequences, C1 controls, a bidi override and 3,000 more characters, percent-encoded in the path
        String hostile = "%00%1B%5B2J%1B%5D0%3Bowned%07%C2%85%C2%9B%E2%80%AE" + "7".repeat(3_000);
        for (String path : new String[] {"/api/jobs/" + hostile, "/api/cards/" + hostile}) {
            String detail = given().auth().preemptive().basic("operator", "operator-test-password")
                    .urlEncodingEnabled(false).get(path).then().statusCode(400)
                    .contentType("application/problem+json").body("field", equalTo("id"))
                    .extract().jsonPath().getString("detail");
            assertThat(detail).as(path)
                    .contains("\\x00\\x1b[2J\\x1b]0;owned\\x07\\x85\\x9b\\u{202E}")
                    .hasSizeLessThan(200);
            assertThat(detail.codePoints()).as(path)
                    .noneMatch(c -> c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x202E);
        }
    }

    @Test
    void aBodyThatIsNotJsonIsNamedAsTheBody() {
        invalid(asOperator().contentType("application/json").body("{bad").post("/api/refreshes").then(), "body")
                .body("detail", containsString("not valid JSON"));
        // nested deeper than Jackson's limit of 1,000, in whatever member: the body, never the reader's own words
        invalid(asOperator().contentType("application/json").body("{\"x\":" + "[".repeat(1_100))
                .post("/api/refreshes").then(), "body")
                .body("detail", not(containsString("StreamReadConstraints")));
    }

    @Test
    void aFieldTheRequestDoesNotHaveIsRefusedNamedNotDropped() {
        long jobs = TestDatabase.count("SELECT count(*) FROM job");
        for (String path : new String[] {"/api/refreshes", "/api/art-builds"}) {
            for (String field : new String[] {"accept_fewer_artwork", "acceptFewerArtworks", "Trigger", "type"}) {
                invalid(asOperator().contentType("application/json").body("{\"" + field + "\":true}").post(path)
                        .then(), field)
                        .body("detail", equalTo(field + ": not a field of this request (its fields: "
                                + "accept_fewer_artworks, trigger)."));
            }
            invalid(asOperator().contentType("application/json")
                    .body("{\"trigger\":\"manual\",\"accept_fewer_artworks\":true,\"force\":1}").post(path).then(),
                    "force");
        }
        assertThat(TestDatabase.count("SELECT count(*) FROM job")).as("no job queued").isEqualTo(jobs);
    }

    @Test
    void aValueOfTheWrongTypeSaysTheTypeItMustBe() {
        for (String value : new String[] {"\"yes\"", "\"true\"", "1", "0", "[true]", "{}"}) {
            invalid(asOperator().contentType("application/json").body("{\"accept_fewer_artworks\":" + value + "}")
                    .post("/api/art-builds").then(), "accept_fewer_artworks")
                    .body("detail", equalTo("accept_fewer_artworks: must be true or false."));
        }
        for (String value : new String[] {"[\"api\"]", "{\"a\":1}"}) {
            invalid(asOperator().contentType("application/json").body("{\"trigger\":" + value + "}")
                    .post("/api/refreshes").then(), "trigger")
                    .body("detail", equalTo("trigger: must be a string."));
        }
    }

    @Test
    void pagingParametersThatAreNotNumbersInRangeAreNamed() {
        invalid(asOperator().queryParam("page", "abc").get("/api/jobs").then(), "page")
                .body("instance", equalTo("/api/jobs"));
        invalid(asOperator().queryParam("size", "99999999999").get("/api/jobs").then(), "size");
        invalid(asOperator().queryParam("size", "0").get("/api/jobs").then(), "size");
        invalid(given().queryParam("name", "dawn").queryParam("size", "1.5").get("/api/cards").then(), "size");
        invalid(given().queryParam("name", "dawn").queryParam("page", "2147483647").get("/api/cards").then(),
                "page");
        invalid(given().queryParam("name", "dawn").queryParam("page", "-1").get("/api/cards").then(), "page");
        given().queryParam("name", "dawn").queryParam("page", Paging.MAX_PAGE).queryParam("size", Paging.MAX_SIZE)
                .get("/api/cards").then().statusCode(200).body("page", equalTo(Paging.MAX_PAGE));
    }

    @Test
    void controlCharactersInTextParametersAreRefused() {
        invalid(given().urlEncodingEnabled(false).get("/api/cards?name=%00").then(), "name");
        invalid(given().urlEncodingEnabled(false).get("/api/cards?set=a%0Ab").then(), "set");
        invalid(asOperator().urlEncodingEnabled(false).get("/api/jobs?state=fa%00iled").then(), "state");
        invalid(given().urlEncodingEnabled(false).get("/api/sets/c19/cards/6%003").then(), "number");
    }

    private static ValidatableResponse invalid(ValidatableResponse response, String field) {
        return response.statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("https://card-catalog.dev/problems/invalid-request"))
                .body("status", equalTo(400))
                .body("field", equalTo(field));
    }
}
