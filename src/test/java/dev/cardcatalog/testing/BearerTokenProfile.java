package dev.cardcatalog.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * Bearer tokens switched on by configuration alone, as an operator would in production: the OIDC tenant enabled,
 * tokens verified against {@link TestTokens}' public key, roles from the {@code groups} claim (the default in
 * application.properties). HTTP Basic stays on.
 */
public class BearerTokenProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "quarkus.oidc.tenant-enabled", "true",
                "quarkus.oidc.public-key", TestTokens.publicKey(),
                "quarkus.oidc.token.issuer", TestTokens.ISSUER);
    }
}
