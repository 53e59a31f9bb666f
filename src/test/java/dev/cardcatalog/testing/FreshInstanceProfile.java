package dev.cardcatalog.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * A profile of its own, so that the application starts afresh for the classes that need an instance nothing has used
 * yet: {@code MonitoringTest} reads {@code /q/metrics} before any request, then {@code ColdClientSpacingTest} sends
 * the first Scryfall requests of HTTP clients with no connection open yet. They run in that order (Quarkus groups the
 * classes of a profile and orders them by name: {@code platform.} before {@code scryfall.}), and MonitoringTest only
 * reads the management interface, so the clients are still cold for ColdClientSpacingTest. Each checks that the
 * instance is still fresh when it starts. The API spacing is the default, set explicitly so the profile differs from
 * the default one. A class that uses the instance must not join this profile.
 */
public class FreshInstanceProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("card-catalog.scryfall.api-spacing", "100ms");
    }
}
