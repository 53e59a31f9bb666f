package dev.cardcatalog.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * An operator's actions: cancelling jobs (SERVICE.md §6.6) and consenting to a smaller art index (§5.8). A
 * rate-limited job comes back after 3 s instead of 30 s (MAX_BACK_OFF 1 s, the minimum delay 2 s), so a test sees the
 * delayed record arrive after its cancel. Images are not spaced, so an art build of the sample is quick; a test that
 * cancels a running build holds it with an image the stand-in serves slowly.
 */
public class OperatorActionsProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "card-catalog.scryfall.max-back-off", "1s",
                "card-catalog.scryfall.rate-limit-lockout", "1s",
                "card-catalog.retry.rate-limit-min-delay", "2s",
                "card-catalog.scryfall.image-spacing", "2ms");
    }
}
