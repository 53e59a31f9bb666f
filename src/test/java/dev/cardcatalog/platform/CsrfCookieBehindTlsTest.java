package dev.cardcatalog.platform;

import static dev.cardcatalog.testing.TestUsers.asOperator;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.ProductionSecurityProfile;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The key docs/operations.md gives for deployments where TLS ends before the service:
 * {@code quarkus.rest-csrf.cookie-force-secure=true} makes the admin page's CSRF cookie {@code Secure} although the
 * service is reached over plain HTTP, and keeps it {@code SameSite=Strict} and {@code HttpOnly}
 * ({@link ProductionSecurityProfile}, with bearer tokens on beside it).
 */
@QuarkusTest
@TestProfile(ProductionSecurityProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class CsrfCookieBehindTlsTest {

    @Test
    void theCsrfCookieIsSecureWhenConfigured() {
        Response page = asOperator().get("/admin");

        assertThat(page.statusCode()).isEqualTo(200);
        List<String> cookies = page.headers().getValues("Set-Cookie");
        assertThat(cookies).hasSize(1);
        assertThat(cookies.get(0)).startsWith("csrf-token=");
        assertThat(List.of(cookies.get(0).toLowerCase(Locale.ROOT).split(";\\s*")))
                .contains("secure", "samesite=strict", "httponly");
    }
}
