package dev.cardcatalog.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The art build on: an applied refresh starts one. Images are not spaced, so a build of the sample is quick. The
 * rate-limit numbers are shortened by configuration, the logic unchanged: MAX_BACK_OFF 4 s (30 s by default) and a
 * rate-limited job's minimum delay 4 s (30 s), so that a Retry-After of 6 s ends the call and the build comes back
 * after 6 s, as 45 s would with the defaults.
 */
public class ArtProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "card-catalog.art.enabled", "true",
                "card-catalog.scryfall.image-spacing", "2ms",
                "card-catalog.scryfall.max-back-off", "4s",
                "card-catalog.retry.rate-limit-min-delay", "4s");
    }
}
