package dev.cardcatalog.platform;

import static dev.cardcatalog.testing.TestUsers.asOperator;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.testing.CardCatalogTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The key docs/operations.md gives for deployments where TLS ends before the service:
 * {@code quarkus.rest-csrf.cookie-force-secure=true} makes the admin page's CSRF cookie {@code Secure} although the
 * service is reached over plain HTTP, and keeps it {@code SameSite=Strict} and {@code HttpOnly}.
 */
@QuarkusTest
@TestProfile(CsrfCookieBehindTlsTest.BehindTls.class)
@WithTestResource(CardCatalogTestResource.class)
class CsrfCookieBehindTlsTest {

    public static class BehindTls implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.rest-csrf.cookie-force-secure", "true");
        }
    }

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
