package dev.cardcatalog.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * Security as an operator sets it in production, behind a proxy that ends TLS (docs/operations.md), by configuration
 * alone: bearer tokens on (the OIDC tenant enabled, tokens verified against {@link TestTokens}' public key, roles
 * from the {@code groups} claim, the default in application.properties), HTTP Basic still on, and the admin page's
 * CSRF cookie forced {@code Secure} although the service itself is reached over plain HTTP.
 */
public class ProductionSecurityProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "quarkus.oidc.tenant-enabled", "true",
                "quarkus.oidc.public-key", TestTokens.publicKey(),
                "quarkus.oidc.token.issuer", TestTokens.ISSUER,
                "quarkus.rest-csrf.cookie-force-secure", "true");
    }
}
