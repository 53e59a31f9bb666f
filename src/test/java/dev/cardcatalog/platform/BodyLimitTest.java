package dev.cardcatalog.platform;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.cardcatalog.testing.CardCatalogTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

/**
 * The request body limit ({@code quarkus.http.limits.max-body-size}, 20 MiB): a larger body is a problem+json 413
 * naming the limit, as docs/api.md says, whether the client declares its length or sends it chunked.
 */
@QuarkusTest
@WithTestResource(CardCatalogTestResource.class)
class BodyLimitTest {

    private static final int LIMIT = 20 * 1024 * 1024;

    @Test
    void aBodyOverTwentyMebibytesIsA413ProblemNamingTheLimit() {
        byte[] body = new byte[LIMIT + 1];
        body[0] = (byte) 0xFF;
        body[1] = (byte) 0xD8;
        body[2] = (byte) 0xFF;
        given().contentType("image/jpeg").body(body).post("/api/art-index/matches").then().statusCode(413)
                .contentType(Problem.MEDIA_TYPE).body("status", equalTo(413))
                .body("type", equalTo(Problem.TYPE_BASE + "body-too-large")).body("field", equalTo("body"))
                .body("detail", containsString("20971521 bytes")).body("detail", containsString("20971520 bytes"));
    }

    @Test
    void aChunkedBodyOverTheLimitIsA413ProblemToo() {
        byte[] body = new byte[LIMIT + 1];
        given().contentType("image/jpeg").body(new ByteArrayInputStream(body)).post("/api/art-index/matches")
                .then().statusCode(413).contentType(Problem.MEDIA_TYPE).body("status", equalTo(413))
                .body("detail", containsString("20971520 bytes"));
    }
}
