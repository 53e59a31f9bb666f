package dev.cardcatalog.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * MAX_BACK_OFF 0 s and the bare-429 lockout 1 s: every answer asking for a wait ends the call at once, so a test can
 * send many of them without sitting any out. The quiet window's cap keeps its default (1 h).
 */
public class NoBackOffProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "card-catalog.scryfall.max-back-off", "0s",
                "card-catalog.scryfall.rate-limit-lockout", "1s");
    }
}
