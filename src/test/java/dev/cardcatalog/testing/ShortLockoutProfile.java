package dev.cardcatalog.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * Scryfall's 30 s lockout after a 429 without Retry-After, shortened to 2 s so tests do not sit out 30 s, and an
 * attempt's timeout to 5 s, so that a stalled attempt is stopped within a test.
 */
public class ShortLockoutProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("card-catalog.scryfall.rate-limit-lockout", "2s",
                "card-catalog.scryfall.attempt-timeout", "5s");
    }
}
