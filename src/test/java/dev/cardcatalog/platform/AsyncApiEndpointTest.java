package dev.cardcatalog.platform;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.testing.CardCatalogTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The AsyncAPI document is served on the management interface, next to OpenAPI, and not on the public port. */
@QuarkusTest
@WithTestResource(CardCatalogTestResource.class)
class AsyncApiEndpointTest {

    @TestHTTPResource(management = true)
    URL management;

    @Test
    void servesDocsAsyncapiYamlAsItIsOnTheManagementInterfaceOnly() throws Exception {
        byte[] served = given().get(management + "asyncapi").then().statusCode(200)
                .contentType("application/yaml; charset=UTF-8")
                .header("X-Content-Type-Options", "nosniff")
                .extract().asByteArray();

        assertThat(served).isEqualTo(Files.readAllBytes(Path.of("docs/asyncapi.yaml")));
        given().get("/q/asyncapi").then().statusCode(404);
    }
}
