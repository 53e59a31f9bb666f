package dev.cardcatalog.platform;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.Jobs;
import dev.cardcatalog.testing.ProductionSecurityProfile;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestTokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/**
 * Bearer tokens switched on by configuration alone ({@link ProductionSecurityProfile}): a token signed with the
 * configured key carries its roles in {@code groups}; no OIDC server is involved. HTTP Basic keeps working beside it.
 */
@QuarkusTest
@TestProfile(ProductionSecurityProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class BearerTokenTest {

    @Test
    void anOperatorsTokenStartsARefreshAndAViewersTokenReadsIt() {
        TestData.reset();
        String jobId = given().auth().oauth2(TestTokens.token("cron@example.org", "operator"))
                .contentType("application/json").body("{\"trigger\":\"api\"}").post("/api/refreshes")
                .then().statusCode(202).extract().jsonPath().getString("id");

        given().auth().oauth2(TestTokens.token("someone@example.org", "viewer")).get("/api/jobs/" + jobId)
                .then().statusCode(200).body("id", equalTo(jobId));
        // HTTP Basic still works with bearer tokens on
        assertThat(Jobs.awaitFinished(jobId).getString("state")).isEqualTo("succeeded");
    }

    @Test
    void aViewersTokenIsForbiddenToPost() {
        given().auth().oauth2(TestTokens.token("someone@example.org", "viewer"))
                .contentType("application/json").body("{}").post("/api/art-builds")
                .then().statusCode(403).contentType("application/problem+json")
                .body("type", equalTo(Problem.TYPE_BASE + "forbidden"));
    }

    @Test
    void aTokenSignedByAnotherKeyIsRefused() {
        given().auth().oauth2(TestTokens.tokenFromAnotherKey("intruder@example.org", "operator"))
                .contentType("application/json").body("{}").post("/api/art-builds")
                .then().statusCode(401).contentType("application/problem+json")
                .body("type", equalTo(Problem.TYPE_BASE + "unauthorized"))
                .header("WWW-Authenticate", startsWith("Bearer"));
    }
}
