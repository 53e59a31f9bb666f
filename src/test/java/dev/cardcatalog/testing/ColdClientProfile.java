package dev.cardcatalog.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * A profile of its own, so the application (and its HTTP clients, with no connection open yet) starts afresh for
 * the test that uses it. The API spacing is the default, set explicitly.
 */
public class ColdClientProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("card-catalog.scryfall.api-spacing", "100ms");
    }
}
